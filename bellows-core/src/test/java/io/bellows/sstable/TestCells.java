package io.bellows.sstable;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

/** Helpers for sorted-file tests: seeded random cells and writing a file. */
final class TestCells {
  static final byte[] FAMILY = Bytes.of("f");
  private static final CellType[] TYPES = {CellType.PUT, CellType.PUT, CellType.PUT, CellType.DELETE,
      CellType.DELETE_COLUMN, CellType.DELETE_FAMILY};

  private TestCells() {}

  /** A random cell with rows and qualifiers from small alphabets (so keys share prefixes and collide). */
  static Cell randomCell(Random rnd) {
    byte[] row = Bytes.of("row-" + rnd.nextInt(300));
    CellType type = TYPES[rnd.nextInt(TYPES.length)];
    byte[] qual = type == CellType.DELETE_FAMILY ? Bytes.EMPTY : Bytes.of("q" + rnd.nextInt(20));
    byte[] value = new byte[type == CellType.PUT ? rnd.nextInt(40) : 0];
    rnd.nextBytes(value);
    Cell c = Cells.create(row, FAMILY, qual, rnd.nextInt(50), type, value);
    c.setSeqId(rnd.nextInt(5) == 0 ? rnd.nextInt(3) : rnd.nextInt(1_000_000));
    return c;
  }

  static TreeSet<Cell> randomSorted(Random rnd, int n) {
    TreeSet<Cell> set = new TreeSet<>(CellComparator.INSTANCE);
    while (set.size() < n) {
      set.add(randomCell(rnd));
    }
    return set;
  }

  static FileMetadata write(Path path, Iterable<Cell> cells, SortedFileOptions options) {
    SortedFileWriter w = SortedFileWriter.create(path, options);
    for (Cell c : cells) {
      w.append(c);
    }
    return w.finish();
  }

  static List<Cell> scanAll(SortedFileReader r) {
    List<Cell> out = new ArrayList<>();
    try (SortedFileScanner s = r.scanner()) {
      if (s.seek(Cells.firstOnRow(Bytes.EMPTY))) {
        for (Cell c = s.next(); c != null; c = s.next()) {
          out.add(c);
        }
      }
    }
    return out;
  }

  static Cell put(String row, String qual, long ts, long seqId) {
    Cell c = Cells.put(Bytes.of(row), FAMILY, Bytes.of(qual), ts, Bytes.of("v-" + row + qual + ts));
    c.setSeqId(seqId);
    return c;
  }
}
