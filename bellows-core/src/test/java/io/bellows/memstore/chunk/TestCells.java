package io.bellows.memstore.chunk;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Random cells for the chunk tests: few distinct rows/qualifiers so that keys collide often. */
final class TestCells {
  private static final CellType[] TYPES = {CellType.PUT, CellType.DELETE, CellType.DELETE_COLUMN, CellType.DELETE_FAMILY};

  private TestCells() {}

  static Cell random(Random rnd) {
    byte[] row = new byte[1 + rnd.nextInt(12)];
    for (int i = 0; i < row.length; i++) {
      row[i] = (byte) (rnd.nextInt(3) == 0 ? 0xF0 + rnd.nextInt(16) : 'a' + rnd.nextInt(3));
    }
    byte[] qual = Bytes.of("q" + rnd.nextInt(4));
    byte[] value = new byte[rnd.nextInt(40)];
    rnd.nextBytes(value);
    Cell c = Cells.create(row, Bytes.of("f"), qual, rnd.nextInt(5), TYPES[rnd.nextInt(TYPES.length)], value);
    c.setSeqId(1 + rnd.nextInt(1000));
    return c;
  }

  static List<Cell> random(Random rnd, int n) {
    List<Cell> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(random(rnd));
    }
    return out;
  }

  /** A copy of the cell's bytes with the same sequence id (independent of any chunk). */
  static Cell detached(Cell c) {
    return new Cell(c.toBytes(), 0, c.length(), c.seqId());
  }
}
