package io.bellows.memstore;

import io.bellows.scan.CellScanner;
import io.bellows.util.RefCounted;

/**
 * A memory segment: a set of cells indexed in {@link io.bellows.cell.CellComparator} order plus its
 * {@link SegmentStats}. The mutable {@link MutableSegment} absorbs writes; an {@link
 * ImmutableSegment} never changes.
 *
 * <p>Lifetime: a segment is reference counted. Its owner (the memory store, while the segment is
 * active, in the pipeline or in the snapshot) holds the first reference and drops it when the segment
 * leaves the memory store (replaced by a merge, or its snapshot released). Every scanner and every
 * in-memory compaction reading the segment holds its own reference, so a segment stays readable until
 * the last reader is done; on-heap segments need nothing freed, while chunk-backed segments return
 * their chunks in {@link #deallocate()}.
 *
 * <p>Thread-safety: safe for concurrent readers; see the subclasses for writers.
 */
public abstract class Segment extends RefCounted {
  private final long id;

  protected Segment(long id) {
    this.id = id;
  }

  /** Unique within one memory store; increases with creation. */
  public final long id() {
    return id;
  }

  public abstract SegmentKind kind();

  /** Metadata; for a mutable segment a moment's view, for an immutable one final. */
  public abstract SegmentStats stats();

  /** Whether the segment no longer changes (immutable, or mutable and sealed). */
  public abstract boolean isStable();

  /**
   * A new unpositioned cursor over the index, which does not itself hold a reference: callers go
   * through {@link #tryScanner()}.
   */
  protected abstract CellScanner cursor();

  /**
   * Takes a reference and returns a scanner that drops it when closed, or null if the segment was
   * already freed (the caller re-reads the memory store's state, which no longer holds it).
   */
  public final CellScanner tryScanner() {
    if (!tryRetain()) {
      return null;
    }
    return new SegmentScanner(this, cursor());
  }

  /** Frees what the segment owns. On-heap segments own nothing beyond garbage-collected objects. */
  @Override
  protected void deallocate() {}

  @Override
  public String toString() {
    return getClass().getSimpleName() + "#" + id + "(" + kind() + ", " + stats().cellCount() + " cells)";
  }
}
