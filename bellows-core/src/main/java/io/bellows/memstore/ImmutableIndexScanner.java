package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.scan.CellScanner;

/**
 * A cursor over an {@link ImmutableIndex}: seeks are binary searches, reseeks binary-search only
 * the part after the current position. The current cell is materialized once per position (a chunk
 * index makes a cell object per {@code get}). Not thread-safe; holds no reference (see {@link
 * SegmentScanner}).
 */
final class ImmutableIndexScanner implements CellScanner {
  private final ImmutableIndex index;
  /** Current position; -1 before the first seek. */
  private int pos = -1;
  private Cell current;

  ImmutableIndexScanner(ImmutableIndex index) {
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

  @Override
  public boolean reseek(Cell key) {
    int at = index.ceiling(key, Math.max(pos, 0));
    if (at != pos) {
      pos = at;
      load();
    }
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
