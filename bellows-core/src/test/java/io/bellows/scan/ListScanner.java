package io.bellows.scan;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A {@link CellScanner} over a sorted in-memory list, for tests. It counts the cells it hands out
 * (to check that seek hints avoid reading), refuses a {@link #reseek} that would move backwards,
 * and remembers whether it was closed. Not thread-safe.
 */
public final class ListScanner implements CellScanner {
  private final List<Cell> cells;
  private int pos;
  private long cellsRead;
  private boolean closed;

  public ListScanner(Collection<Cell> cells) {
    this.cells = new ArrayList<>(cells);
    this.cells.sort(CellComparator.INSTANCE);
  }

  @Override
  public Cell peek() {
    return pos < cells.size() ? cells.get(pos) : null;
  }

  @Override
  public Cell next() {
    Cell c = peek();
    if (c != null) {
      pos++;
      cellsRead++;
    }
    return c;
  }

  @Override
  public boolean seek(Cell key) {
    int lo = 0;
    int hi = cells.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (CellComparator.INSTANCE.compare(cells.get(mid), key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    pos = lo;
    return peek() != null;
  }

  @Override
  public boolean reseek(Cell key) {
    Cell c = peek();
    if (c != null && CellComparator.INSTANCE.compare(key, c) < 0) {
      throw new IllegalStateException("reseek backwards to " + key + " from " + c);
    }
    return seek(key);
  }

  @Override
  public byte[] rowBefore(byte[] row) {
    byte[] best = null;
    for (Cell c : cells) {
      if (row.length == 0 || io.bellows.util.Bytes.compare(c.row(), row) < 0) {
        best = c.row();
      }
    }
    pos = cells.size();
    return best;
  }

  @Override
  public void close() {
    closed = true;
  }

  public long cellsRead() {
    return cellsRead;
  }

  public boolean isClosed() {
    return closed;
  }
}
