package io.bellows.bench;

import io.bellows.config.ActiveIndexType;
import io.bellows.config.SegmentIndexType;

/**
 * The memory layouts under test: which index the active segment uses, which the flat (immutable)
 * segments use, whether cell data is copied into chunks (MSLAB) and whether chunks live off the heap.
 * These only set knobs ({@code ACTIVE_INDEX}, {@code SEGMENT_INDEX}, {@code MSLAB} on the family,
 * {@code bellows.mslab.offheap} on the engine); the memory store decides what to do with them, so a
 * layout the memory store does not implement yet silently behaves like {@link #OBJECT}.
 */
public enum IndexKind {
  /** ConcurrentSkipListMap of cell objects; flat segments are arrays of cell references. */
  OBJECT(ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.ARRAY, false, false),
  /**
   * The engine's default: the writers' cell objects in the active skiplist; each flatten copies
   * them into heap chunks in key order, indexed by a serialized flat index.
   */
  CHUNK_FLAT(ActiveIndexType.OBJECT_SKIPLIST, SegmentIndexType.CHUNK, false, false),
  /** Skiplist nodes in chunks, serialized flat index, cell data copied into heap chunks. */
  CHUNK_HEAP(ActiveIndexType.CHUNK_SKIPLIST, SegmentIndexType.CHUNK, true, false),
  /** As {@link #CHUNK_HEAP} with cell data in direct (off-heap) chunks. */
  CHUNK_OFFHEAP(ActiveIndexType.CHUNK_SKIPLIST, SegmentIndexType.CHUNK, true, true);

  public final ActiveIndexType activeIndex;
  public final SegmentIndexType segmentIndex;
  public final boolean mslab;
  public final boolean offHeap;

  IndexKind(ActiveIndexType activeIndex, SegmentIndexType segmentIndex, boolean mslab, boolean offHeap) {
    this.activeIndex = activeIndex;
    this.segmentIndex = segmentIndex;
    this.mslab = mslab;
    this.offHeap = offHeap;
  }
}
