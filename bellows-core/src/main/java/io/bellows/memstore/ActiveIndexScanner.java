package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.scan.CellScanner;
import java.util.Iterator;

/**
 * A cursor over an {@link ActiveIndex}, reading its weakly consistent tail iterators: cells added
 * behind the cursor are not seen, cells added ahead may be. Not thread-safe; holds no reference.
 */
final class ActiveIndexScanner implements CellScanner {
  /** Cells stepped over by a reseek before it searches the index from the head. */
  private static final int RESEEK_STEPS = 16;

  private final ActiveIndex index;
  private Iterator<Cell> it;
  private Cell current;

  ActiveIndexScanner(ActiveIndex index) {
    this.index = index;
  }

  @Override
  public Cell peek() {
    return current;
  }

  @Override
  public Cell next() {
    Cell c = current;
    if (c != null) {
      current = it.hasNext() ? it.next() : null;
    }
    return c;
  }

  @Override
  public boolean seek(Cell key) {
    it = index.tail(key);
    current = it.hasNext() ? it.next() : null;
    return current != null;
  }

  /**
   * Steps forward a few cells before searching again: a skip inside a row (past a column's older
   * versions) is usually short, and a skiplist search costs tens of comparisons from the head.
   */
  @Override
  public boolean reseek(Cell key) {
    if (it == null) {
      return seek(key);
    }
    for (int steps = 0; current != null; steps++) {
      if (CellComparator.INSTANCE.compare(current, key) >= 0) {
        return true;
      }
      if (steps == RESEEK_STEPS) {
        return seek(key);
      }
      current = it.hasNext() ? it.next() : null;
    }
    return false;
  }

  @Override
  public byte[] rowBefore(byte[] row) {
    it = null;
    current = null;
    Cell c = index.lastBefore(row.length == 0 ? null : CellScanner.rowStart(row));
    return c == null ? null : c.row();
  }

  @Override
  public void close() {
    it = null;
    current = null;
  }
}
