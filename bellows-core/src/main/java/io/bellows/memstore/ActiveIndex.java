package io.bellows.memstore;

import io.bellows.cell.Cell;
import java.util.Iterator;

/**
 * The index of a mutable segment: a concurrent sorted set of cells. Implementations: {@link
 * SkipListActiveIndex} (cell objects in a {@code ConcurrentSkipListSet}); the chunk layer can add a
 * skiplist living in chunk memory.
 *
 * <p>Thread-safety: {@link #add} is called by many writers at once, concurrently with iteration.
 */
public interface ActiveIndex {
  /** Adds a cell; false if an equal cell (the same write) is already present. */
  boolean add(Cell cell);

  /** Cells &gt;= {@code key} in order; weakly consistent under concurrent adds. */
  Iterator<Cell> tail(Cell key);

  /** Heap bytes of index structure charged per entry (not counting the cell object). */
  long entryOverheadBytes();

  /** The index form, for metrics. */
  SegmentKind kind();
}
