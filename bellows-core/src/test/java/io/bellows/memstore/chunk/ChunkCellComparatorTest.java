package io.bellows.memstore.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SeedExtension.class)
class ChunkCellComparatorTest {
  /** Puts the cell at an odd offset of a buffer of the given kind. */
  private static ByteBuffer place(Cell c, boolean direct, int at) {
    ByteBuffer b = direct ? ByteBuffer.allocateDirect(at + c.length()) : ByteBuffer.allocate(at + c.length());
    b.put(at, c.array(), c.offset(), c.length());
    return b;
  }

  @Test
  void agreesWithCellComparatorOnEveryBufferKind(Seed s) {
    long seed = s.value();
    Random rnd = new Random(seed);
    List<Cell> cells = TestCells.random(rnd, 300);
    for (int i = 0; i < 3000; i++) {
      Cell a = cells.get(rnd.nextInt(cells.size()));
      Cell b = rnd.nextInt(10) == 0 ? TestCells.detached(a) : cells.get(rnd.nextInt(cells.size()));
      int expected = Integer.signum(CellComparator.INSTANCE.compare(a, b));
      for (int kinds = 0; kinds < 4; kinds++) {
        int ao = rnd.nextInt(9);
        int bo = rnd.nextInt(9);
        ByteBuffer ab = place(a, (kinds & 1) != 0, ao);
        ByteBuffer bb = place(b, (kinds & 2) != 0, bo);
        int got = Integer.signum(ChunkCellComparator.compare(ab, ao, a.seqId(), bb, bo, b.seqId()));
        assertThat(got).as("seed %d: %s vs %s kinds %d", seed, a, b, kinds).isEqualTo(expected);
      }
    }
  }

  @Test
  void comparesBytesUnsignedAcrossWordBoundaries() {
    ByteBuffer a = ByteBuffer.allocateDirect(20);
    ByteBuffer b = ByteBuffer.allocateDirect(20);
    for (int i = 0; i < 20; i++) {
      a.put(i, (byte) i);
      b.put(i, (byte) i);
    }
    assertThat(ChunkCellComparator.compareBytes(a, 0, 20, b, 0, 20)).isZero();
    b.put(11, (byte) 0x80); // unsigned: 0x80 > 11
    assertThat(ChunkCellComparator.compareBytes(a, 0, 20, b, 0, 20)).isNegative();
    assertThat(ChunkCellComparator.compareBytes(b, 0, 20, a, 0, 20)).isPositive();
    assertThat(ChunkCellComparator.compareBytes(a, 0, 9, a, 0, 10)).isNegative();
    a.put(3, (byte) 0xFF);
    assertThat(ChunkCellComparator.compareBytes(a, 0, 9, b, 0, 10)).isPositive();
  }
}
