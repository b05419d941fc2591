package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import java.util.Iterator;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * An {@link ActiveIndex} over a {@link ConcurrentSkipListSet} of cell objects ordered by {@link
 * CellComparator}. Thread-safe (lock-free).
 */
public final class SkipListActiveIndex implements ActiveIndex {
  private final ConcurrentSkipListSet<Cell> cells = new ConcurrentSkipListSet<>(CellComparator.INSTANCE);

  @Override
  public boolean add(Cell cell) {
    return cells.add(cell);
  }

  @Override
  public Iterator<Cell> tail(Cell key) {
    return cells.tailSet(key, true).iterator();
  }

  @Override
  public long entryOverheadBytes() {
    return MemoryLayout.SKIPLIST_ENTRY;
  }

  @Override
  public SegmentKind kind() {
    return SegmentKind.SKIPLIST;
  }
}
