package io.bellows.memstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The row Bloom filter on its own: no false negatives, the designed false-positive rate, sizing. */
@ExtendWith(SeedExtension.class)
class SegmentRowFilterTest {
  @Test
  void neverMissesAnAddedRowAndRarelyAcceptsOthers(Seed s) {
    long seed = s.value();
    Random rnd = new Random(seed);
    Set<String> added = new HashSet<>();
    SegmentRowFilter.Builder b = new SegmentRowFilter.Builder();
    for (int i = 0; i < 20_000; i++) {
      String row = "user" + rnd.nextLong();
      added.add(row);
      byte[] r = Bytes.of(row);
      for (int cell = 0; cell < 3; cell++) { // consecutive cells of one row count once
        b.addRow(r, 0, r.length, 0);
      }
    }
    SegmentRowFilter f = b.build();
    assertThat(f.rowCount()).isEqualTo(added.size());
    for (String row : added) {
      assertThat(f.mightContain(Bytes.of(row))).as(row).isTrue();
    }
    int falsePositives = 0;
    int probes = 100_000;
    for (int i = 0; i < probes; i++) {
      String row = "absent" + rnd.nextLong();
      if (f.mightContain(Bytes.of(row))) {
        falsePositives++;
      }
    }
    double rate = (double) falsePositives / probes;
    System.out.printf("false positives: %.4f (target %.2f), %d bits for %d rows, k=%d%n",
        rate, SegmentRowFilter.FALSE_POSITIVE_RATE, f.numBits(), f.rowCount(), f.hashCount());
    assertThat(rate).isBetween(0.002, 0.02);
    // 10 bits per row, rounded up to whole 512-bit blocks.
    assertThat((double) f.numBits() / f.rowCount()).isBetween(10.0, 10.03);
    assertThat(f.numBits() % 512).isZero();
    assertThat(f.heapBytes()).isEqualTo(SegmentRowFilter.heapBytesFor(f.rowCount()));
  }

  @Test
  void rowsInSerializedCellsHashLikeRowArrays() {
    byte[] cell = MemStoreFixtures.cell("some-row", "q", 7, 1).toBytes();
    for (ByteBuffer buf : new ByteBuffer[] {ByteBuffer.allocate(cell.length + 5), ByteBuffer.allocateDirect(cell.length + 5)}) {
      buf.put(5, cell);
      SegmentRowFilter.Builder b = new SegmentRowFilter.Builder();
      b.addRow(buf, 5, 0);
      SegmentRowFilter f = b.build();
      assertThat(f.mightContain(Bytes.of("some-row"))).isTrue();
      assertThat(f.mightContain(Bytes.of("some-ro"))).isFalse();
      assertThat(f.rowCount()).isEqualTo(1);
    }
  }

  @Test
  void emptyFilterAcceptsNothing() {
    SegmentRowFilter f = new SegmentRowFilter.Builder().build();
    assertThat(f.rowCount()).isZero();
    assertThat(f.numBits()).isEqualTo(512); // one block
    assertThat(f.mightContain(Bytes.of("x"))).isFalse();
    assertThat(f.mightContain(Bytes.EMPTY)).isFalse();
  }
}
