package io.bellows.memstore;

import io.bellows.cell.Cell;

/**
 * A flat {@link ImmutableIndex}: a sorted array of cell references (CellArrayMap). One 4-byte slot
 * per cell instead of a skiplist node and its index nodes. Immutable after construction; the caller
 * hands over an array it no longer touches.
 */
public final class CellArrayIndex implements ImmutableIndex {
  private final Cell[] cells;
  private final int size;

  /** Uses {@code cells[0..size)}, which must be sorted; the array is owned by the index from now on. */
  public CellArrayIndex(Cell[] cells, int size) {
    this.cells = cells;
    this.size = size;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public Cell get(int i) {
    if (i >= size) {
      throw new IndexOutOfBoundsException(i + " >= " + size);
    }
    return cells[i];
  }

  @Override
  public long indexBytes() {
    return MemoryLayout.arrayIndexBytes(cells.length);
  }

  @Override
  public SegmentKind kind() {
    return SegmentKind.ARRAY;
  }
}
