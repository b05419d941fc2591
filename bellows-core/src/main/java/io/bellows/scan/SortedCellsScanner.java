package io.bellows.scan;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import java.util.Collections;
import java.util.List;

/**
 * A scanner over cells already read and in order: what a get's point read found in one sorted file
 * (from the KV cache or one data block), fed to the same merge, version, delete and TTL rules as any
 * other source. Holds nothing to release. Not thread-safe.
 */
public final class SortedCellsScanner implements CellScanner {
  /** Cells compared one by one before a seek turns to binary search. */
  private static final int LINEAR_STEPS = 8;

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
    int n = cells.size();
    for (int steps = 0; pos < n && CellComparator.INSTANCE.compare(cells.get(pos), key) < 0; steps++) {
      if (steps == LINEAR_STEPS) {
        pos = firstAtOrAfter(key, pos + 1, n); // a long row: the rest by binary search
        break;
      }
      pos++;
    }
    return pos < n;
  }

  /**
   * The first index in [from, to) whose cell is &gt;= {@code key}, or {@code to}. A source never
   * holds the same write twice, so a found cell is the only one equal to the key.
   */
  private int firstAtOrAfter(Cell key, int from, int to) {
    int i = Collections.binarySearch(cells.subList(from, to), key, CellComparator.INSTANCE);
    return from + (i >= 0 ? i : -i - 1);
  }

  @Override
  public void close() {}
}
