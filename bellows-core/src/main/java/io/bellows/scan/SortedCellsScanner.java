package io.bellows.scan;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import java.util.List;

/**
 * A scanner over cells already read and in order: what a get's point read found in one sorted file
 * (from the KV cache or one data block), fed to the same merge, version, delete and TTL rules as any
 * other source. Holds nothing to release. Not thread-safe.
 */
public final class SortedCellsScanner implements CellScanner {
  private final List<Cell> cells;
  private int pos = -1; // unpositioned until the first seek

  /** @param cells in {@link CellComparator} order; not copied, never modified */
  public SortedCellsScanner(List<Cell> cells) {
    this.cells = cells;
  }

  @Override
  public Cell peek() {
    return pos >= 0 && pos < cells.size() ? cells.get(pos) : null;
  }

  @Override
  public Cell next() {
    Cell c = peek();
    if (c != null) {
      pos++;
    }
    return c;
  }

  @Override
  public boolean seek(Cell key) {
    // A point read holds a handful of cells: a linear walk beats a binary search's bookkeeping.
    pos = 0;
    return reseek(key);
  }

  @Override
  public boolean reseek(Cell key) {
    if (pos < 0) {
      pos = 0;
    }
    while (pos < cells.size() && CellComparator.INSTANCE.compare(cells.get(pos), key) < 0) {
      pos++;
    }
    return pos < cells.size();
  }

  @Override
  public void close() {}
}
