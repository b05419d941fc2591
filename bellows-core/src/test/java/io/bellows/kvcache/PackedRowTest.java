package io.bellows.kvcache;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SeedExtension.class)
class PackedRowTest {

  @Test
  void unpackingGivesBackEveryCellsBytesAndSequenceIdInOrder(Seed seed) {
    Random rnd = seed.random();
    for (int round = 0; round < 200; round++) {
      byte[] row = Bytes.of("row-" + rnd.nextInt(1000));
      List<Cell> cells = new ArrayList<>();
      int n = 1 + rnd.nextInt(12);
      for (int i = 0; i < n; i++) {
        byte[] value = new byte[rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(300)];
        rnd.nextBytes(value);
        Cell c = Cells.put(row, Bytes.of("f"), Bytes.of("q" + i), rnd.nextLong() & Long.MAX_VALUE, value);
        // As a block cursor's copies and memory-store cells are: some inside a larger array.
        int pad = rnd.nextInt(2) * rnd.nextInt(20);
        byte[] in = new byte[pad + c.length() + pad];
        System.arraycopy(c.array(), c.offset(), in, pad, c.length());
        cells.add(new Cell(in, pad, c.length(), rnd.nextInt(4) == 0 ? 0 : rnd.nextLong() & Long.MAX_VALUE));
      }
      byte[] packed = PackedRow.pack(cells);
      assertThat(packed).as("%s: a sequence id and the bytes of each cell", seed)
          .hasSize(cells.stream().mapToInt(c -> 8 + c.length()).sum());
      List<Cell> back = PackedRow.unpack(packed);
      assertThat(back).as(seed.toString()).hasSameSizeAs(cells);
      for (int i = 0; i < n; i++) {
        Cell a = cells.get(i);
        Cell b = back.get(i);
        assertThat(b.array()).as("cells share the packed bytes").isSameAs(packed);
        assertThat(b.seqId()).as(seed.toString()).isEqualTo(a.seqId());
        assertThat(Arrays.copyOfRange(b.array(), b.offset(), b.offset() + b.length()))
            .as(seed.toString()).isEqualTo(Arrays.copyOfRange(a.array(), a.offset(), a.offset() + a.length()));
        assertThat(b.timestamp()).isEqualTo(a.timestamp());
        assertThat(b.isRow(row)).isTrue();
      }
    }
  }
}
