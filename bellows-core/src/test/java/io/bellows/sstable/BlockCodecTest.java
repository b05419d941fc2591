package io.bellows.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.config.Compression;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * Compressed payloads decode to what was compressed, and a malformed one (which a checksum does not
 * catch when the block was written so, or resealed) is an {@link IllegalArgumentException} — never a
 * read past the input or a payload of the wrong size.
 */
class BlockCodecTest {
  private final BlockCodec codec = new BlockCodec();

  @Test
  void everyCompressionRoundTrips() {
    byte[] block = sampleBlock(new Random(1), 64 * 1024);
    for (Compression c : Compression.values()) {
      byte[] stored = codec.compress(c, block, 0, block.length);
      assertThat(codec.decompress(c, stored, 0, stored.length, block.length)).as(c.name()).isEqualTo(block);
    }
  }

  /**
   * A damaged LZ4 payload (cut short, or one byte changed) decodes from its own bytes only: the
   * result is the same whatever follows it in the array (here random bytes or none), and it is the
   * claimed size or refused. A decoder that reads past the payload ("fast" LZ4 decoding trusts its
   * input) gives a different answer, or fails otherwise, when nothing follows.
   */
  @Property(tries = 500)
  void aDamagedLz4PayloadDecodesFromItsOwnBytesOnly(@ForAll long seed) {
    Random rnd = new Random(seed);
    byte[] block = sampleBlock(rnd, 1 + rnd.nextInt(8 * 1024));
    byte[] stored = codec.compress(Compression.LZ4, block, 0, block.length);
    byte[] damaged = rnd.nextBoolean() ? Arrays.copyOf(stored, rnd.nextInt(stored.length)) : stored.clone();
    if (damaged.length == stored.length) {
      damaged[rnd.nextInt(damaged.length)] ^= (byte) (1 + rnd.nextInt(255));
    }
    byte[] padded = new byte[damaged.length + 64];
    rnd.nextBytes(padded);
    System.arraycopy(damaged, 0, padded, 0, damaged.length);
    String alone = outcome(damaged, damaged.length, block.length);
    assertThat(outcome(padded, damaged.length, block.length)).isEqualTo(alone);
    assertThat(alone).matches("decoded " + block.length + " bytes .*|refused");
  }

  private String outcome(byte[] src, int len, int uncompressedLength) {
    try {
      byte[] out = codec.decompress(Compression.LZ4, src, 0, len, uncompressedLength);
      return "decoded " + out.length + " bytes " + Arrays.hashCode(out);
    } catch (IllegalArgumentException refused) {
      return "refused";
    }
  }

  @Test
  void anLz4PayloadThatDecodesShortIsRefused() {
    byte[] block = sampleBlock(new Random(2), 4096);
    byte[] stored = codec.compress(Compression.LZ4, block, 0, block.length);
    assertThatThrownBy(() -> codec.decompress(Compression.LZ4, stored, 0, stored.length, block.length + 10))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("lz4");
  }

  /** Half repeated text, half random bytes: something for a compressor to find and something not. */
  private static byte[] sampleBlock(Random rnd, int size) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = i % 64 < 32 ? (byte) ('a' + i % 7) : (byte) rnd.nextInt();
    }
    return b;
  }
}
