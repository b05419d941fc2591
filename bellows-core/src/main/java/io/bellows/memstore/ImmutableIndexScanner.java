package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.scan.CellScanner;

/**
 * A cursor over an {@link ImmutableIndex}: seeks are binary searches, reseeks binary-search only
 * the part after the current position. Not thread-safe; holds no reference (see {@link
 * SegmentScanner}).
 */
final class ImmutableIndexScanner implements CellScanner {
  private final ImmutableIndex index;
  /** Current position; -1 before the first seek. */
  private int pos = -1;

  ImmutableIndexScanner(ImmutableIndex index) {
    this.index = index;
  }

  @Override
  public Cell peek() {
    return pos >= 0 && pos < index.size() ? index.get(pos) : null;
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
    pos = index.ceiling(key, 0);
    return pos < index.size();
  }

  @Override
  public boolean reseek(Cell key) {
    pos = index.ceiling(key, Math.max(pos, 0));
    return pos < index.size();
  }

  @Override
  public void close() {}
}
