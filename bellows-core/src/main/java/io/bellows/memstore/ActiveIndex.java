package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.memstore.chunk.ChunkEntryCursor;
import io.bellows.memstore.chunk.MemStoreLab;
import java.util.Iterator;

/**
 * The index of a mutable segment: a concurrent sorted set of cells, which also decides where the
 * cells' bytes live. Implementations: {@link SkipListActiveIndex} (cell objects in a {@code
 * ConcurrentSkipListSet}, the caller's bytes or a copy in an MSLAB) and {@link
 * ChunkSkipListActiveIndex} (nodes and bytes in chunk memory, no Java object per cell).
 *
 * <p>Thread-safety: {@link #add} is called by many writers at once, concurrently with iteration.
 * {@link #free} is called once, after the last reader is gone.
 */
public interface ActiveIndex {
  /**
   * Adds a cell (copying its bytes into the lab if there is one). Returns the bytes of index
   * structure charged for this entry (not counting the cell object, see {@link #cellObjectBytes}),
   * or -1 if an equal cell (the same write) is already present.
   */
  long add(Cell cell);

  /** Heap bytes of the cell object the index keeps for {@code cell} (0 if it keeps none). */
  long cellObjectBytes(Cell cell);

  /** Whether cell bytes live off the heap (direct chunks). */
  boolean dataOffHeap();

  /** Whether the index structure lives off the heap. */
  boolean indexOffHeap();

  /** Cells &gt;= {@code key} in order; weakly consistent under concurrent adds. */
  Iterator<Cell> tail(Cell key);

  /** The last cell &lt; {@code key} (the last cell when {@code key} is null), or null; weakly consistent. */
  Cell lastBefore(Cell key);

  /** The index form, for metrics. */
  SegmentKind kind();

  /** The MSLAB holding the cells' bytes, or null if cells stay in the writers' arrays. */
  MemStoreLab lab();

  /**
   * Where each cell lives in chunk memory, in order (for building a chunk index over the same
   * bytes), or null if the cells are not in chunks. Meant for a sealed segment.
   */
  ChunkEntryCursor entries();

  /** Frees the index and gives up the lab's creator reference; called once. */
  void free();
}
