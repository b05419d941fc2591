package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.scan.CellScanner;

/**
 * A cursor over an {@link ImmutableIndex}: seeks are binary searches, reseeks gallop forward from
 * the current position. The current cell is materialized once per position (a chunk
 * index makes a cell object per {@code get}). Not thread-safe; holds no reference (see {@link
 * SegmentScanner}).
 */
final class ImmutableIndexScanner implements CellScanner {
  private final ImmutableIndex index;
  /** The segment's row filter and row positions, or null. */
  private final SegmentRowFilter rows;
  /** Current position; -1 before the first seek. */
  private int pos = -1;
  private Cell current;

  ImmutableIndexScanner(ImmutableIndex index) {
    this(index, null);
  }

  ImmutableIndexScanner(ImmutableIndex index, SegmentRowFilter rows) {
    this.index = index;
    this.rows = rows;
  }

  @Override
  public Cell peek() {
    return current;
  }

  @Override
  public Cell next() {
    Cell c = current;
    if (c != null) {
      pos++;
      load();
    }
    return c;
  }

  @Override
  public boolean seek(Cell key) {
    pos = index.ceiling(key, 0);
    load();
    return current != null;
  }

  /** Through the row positions when the segment has them and they know the row; else a search. */
  @Override
  public boolean seekRow(byte[] row, long rowHash) {
    int p = rows == null ? -1 : rows.firstPosition(row, rowHash, index);
    if (p < 0) {
      return seek(CellScanner.rowStart(row));
    }
    pos = p;
    load();
    return true;
  }

  /**
   * Gallops from the current position (probes 1, 2, 4, ... cells ahead), then binary-searches the
   * last gap: a skip of d cells costs about 2 log d comparisons, so the common short skip (past a
   * column's older versions) no longer pays a search over the whole rest of the segment.
   */
  @Override
  public boolean reseek(Cell key) {
    if (pos < 0) {
      return seek(key);
    }
    if (current == null || CellComparator.INSTANCE.compare(current, key) >= 0) {
      return current != null;
    }
    int n = index.size();
    int below = pos; // a position whose cell is < key
    int step = 1;
    int probe = pos + 1;
    while (probe < n && CellComparator.INSTANCE.compare(index.get(probe), key) < 0) {
      below = probe;
      step <<= 1;
      probe = below + step;
    }
    pos = index.ceiling(key, below + 1, Math.min(probe, n));
    load();
    return current != null;
  }

  @Override
  public byte[] rowBefore(byte[] row) {
    int at = row.length == 0 ? index.size() : index.ceiling(CellScanner.rowStart(row), 0);
    pos = -1;
    current = null;
    return at > 0 ? index.get(at - 1).row() : null;
  }

  private void load() {
    current = pos >= 0 && pos < index.size() ? index.get(pos) : null;
  }

  @Override
  public void close() {
    current = null;
  }
}
