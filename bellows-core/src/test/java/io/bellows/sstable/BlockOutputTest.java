package io.bellows.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.config.Compression;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Blocks framed in the output's one reused buffer: each reads back as written (header, stored
 * payload, checksum), whatever the sizes of the blocks before it, and a payload compression does not
 * shrink is stored as is.
 */
@ExtendWith(SeedExtension.class)
class BlockOutputTest {
  private final BlockCodec codec = new BlockCodec();

  @Test
  void blocksOfEverySizeAndCompressionReadBackFromOneReusedBuffer(Seed seed) throws IOException {
    Random rnd = new Random(seed.value());
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    BlockOutput out = new BlockOutput(file);
    List<byte[]> payloads = new ArrayList<>();
    List<Compression> asked = new ArrayList<>();
    List<Integer> offsets = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      int len = rnd.nextInt(10) == 0 ? 64 * 1024 + rnd.nextInt(200 * 1024) : rnd.nextInt(8 * 1024);
      byte[] payload = new byte[len];
      if (rnd.nextBoolean()) {
        rnd.nextBytes(payload); // incompressible
      } else {
        for (int j = 0; j < len; j++) {
          payload[j] = (byte) ('a' + rnd.nextInt(3));
        }
      }
      int off = rnd.nextInt(16);
      byte[] src = new byte[off + len + rnd.nextInt(16)];
      System.arraycopy(payload, 0, src, off, len);
      Compression c = Compression.values()[rnd.nextInt(Compression.values().length)];
      offsets.add((int) out.position());
      int size = out.write(BlockType.DATA, c, src, off, len);
      assertThat(out.position() - offsets.get(i)).isEqualTo(size);
      payloads.add(payload);
      asked.add(c);
    }
    byte[] bytes = file.toByteArray();
    assertThat(bytes.length).isEqualTo(out.position());
    for (int i = 0; i < payloads.size(); i++) {
      String at = "seed " + seed.value() + ", block " + i;
      int o = offsets.get(i);
      assertThat(BlockType.fromCodeOrNull(bytes[o])).as(at).isEqualTo(BlockType.DATA);
      Compression used = Compression.fromCode(bytes[o + 1]);
      int uncompressed = Bytes.getInt(bytes, o + 2);
      int stored = Bytes.getInt(bytes, o + 6);
      assertThat(uncompressed).as(at).isEqualTo(payloads.get(i).length);
      assertThat(Bytes.getInt(bytes, o + BlockFormat.HEADER + stored))
          .as(at).isEqualTo(BlockFormat.crc(bytes, o, BlockFormat.HEADER + stored));
      byte[] payload = codec.decompress(used, bytes, o + BlockFormat.HEADER, stored, uncompressed);
      assertThat(payload).as(at).isEqualTo(payloads.get(i));
      if (used == Compression.NONE) {
        assertThat(stored).as(at).isEqualTo(uncompressed);
      } else {
        assertThat(used).as(at).isEqualTo(asked.get(i));
        assertThat(stored).as(at + ": kept compressed only when smaller").isLessThan(uncompressed);
        byte[] alone = codec.compress(used, payloads.get(i), 0, uncompressed);
        assertThat(Arrays.copyOfRange(bytes, o + BlockFormat.HEADER, o + BlockFormat.HEADER + stored))
            .as(at + ": the same bytes as compressing the block on its own").isEqualTo(alone);
      }
    }
  }
}
