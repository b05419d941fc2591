package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.scan.CellScanner;
import java.util.Iterator;

/**
 * A cursor over an {@link ActiveIndex}, reading its weakly consistent tail iterators: cells added
 * behind the cursor are not seen, cells added ahead may be. Not thread-safe; holds no reference.
 */
final class ActiveIndexScanner implements CellScanner {
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
