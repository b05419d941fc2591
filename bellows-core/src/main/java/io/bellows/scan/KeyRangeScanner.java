package io.bellows.scan;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.cell.Cells;

/**
 * The cells of another scanner whose rows lie in {@code [start, end)} (an empty key is unbounded).
 * A region's compactions read their input through it, so that a daughter of a split rewrites only
 * its half of the sorted files it shares (by hard links) with its sister. Not thread-safe.
 */
public final class KeyRangeScanner implements CellScanner {
  private final CellScanner in;
  private final byte[] start;
  private final byte[] end;

  public KeyRangeScanner(CellScanner in, byte[] start, byte[] end) {
    this.in = in;
    this.start = start;
    this.end = end;
  }

  /** Moves past cells before the range; null at the end of the range. */
  private Cell position() {
    Cell c = in.peek();
    if (c != null && start.length > 0 && CellComparator.compareRow(c, start) < 0) {
      in.seek(Cells.firstOnRow(start));
      c = in.peek();
    }
    if (c != null && end.length > 0 && CellComparator.compareRow(c, end) >= 0) {
      return null;
    }
    return c;
  }

  @Override
  public Cell peek() {
    return position();
  }

  @Override
  public Cell next() {
    return position() == null ? null : in.next();
  }

  @Override
  public boolean seek(Cell key) {
    in.seek(key);
    return position() != null;
  }

  @Override
  public boolean reseek(Cell key) {
    in.reseek(key);
    return position() != null;
  }

  @Override
  public byte[] rowBefore(byte[] row) {
    byte[] bound = row;
    if (end.length > 0 && (row.length == 0 || io.bellows.util.Bytes.compare(row, end) > 0)) {
      bound = end; // nothing at or past the end counts
    }
    byte[] r = in.rowBefore(bound);
    return r != null && start.length > 0 && io.bellows.util.Bytes.compare(r, start) < 0 ? null : r;
  }

  @Override
  public void close() {
    in.close();
  }
}
