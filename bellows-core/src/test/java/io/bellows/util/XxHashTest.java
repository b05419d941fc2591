package io.bellows.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import net.jpountz.xxhash.XXHashFactory;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * {@link XxHash} is the xxHash64 (seed 0) that sorted files' Bloom filters were written with: the
 * published values, and the same values as lz4-java's JNI implementation, which Bellows used before.
 * Failing properties print their seed; replay with {@code @Property(seed = "...")}.
 */
class XxHashTest {
  @Test
  void publishedValues() {
    assertThat(XxHash.hash64(new byte[0], 0, 0)).isEqualTo(0xEF46DB3751D8E999L);
    byte[] abc = "xabcx".getBytes(StandardCharsets.US_ASCII);
    assertThat(XxHash.hash64(abc, 1, 3)).isEqualTo(0x44BC2CF5AD770999L);
  }

  @Property(tries = 2000)
  void sameAsTheNativeImplementation(@ForAll @Size(max = 120) byte[] b, @ForAll @IntRange(max = 120) int from,
      @ForAll @IntRange(max = 120) int length) {
    int off = Math.min(from, b.length);
    int len = Math.min(length, b.length - off);
    assertThat(XxHash.hash64(b, off, len))
        .isEqualTo(XXHashFactory.nativeInstance().hash64().hash(b, off, len, 0L));
    ByteBuffer direct = ByteBuffer.allocateDirect(b.length).put(b);
    assertThat(XxHash.hash64(direct, off, len)).isEqualTo(XxHash.hash64(b, off, len));
  }
}
