package io.bellows.memstore;

import io.bellows.memstore.chunk.ChunkEntryCursor;
import io.bellows.scan.CellScanner;
import io.bellows.scan.ScanQuery;
import java.util.List;
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
    return new SegmentScanner(this, cursor(), chunkViews());
  }

  /**
   * Like {@link #tryScanner()}, but the cells may view chunk memory: for in-memory compactions,
   * which use them only while holding the segment (or retain the segment's data holders).
   */
  final CellScanner tryInternalScanner() {
    if (!tryRetain()) {
      return null;
    }
    return new SegmentScanner(this, cursor(), false);
  }

  /**
   * Whether cells read from {@link #cursor()} view heap chunk memory. Such views must not escape
   * the memory store (a reader may keep a cell after its scanner closed and the chunk was
   * recycled), so {@link #tryScanner()} hands out copies.
   */
  abstract boolean chunkViews();

  /**
   * What keeps this segment's cell bytes alive (its MSLAB, or a chunk index that holds its data
   * chunks); empty when cells live in the writers' arrays. An index-only merge into an array
   * retains these so its cell views stay valid after the inputs are freed.
   */
  abstract List<RefCounted> dataHolders();

  /** Where each cell lives in chunk memory, in order; null if the cells are not in chunks. */
  abstract ChunkEntryCursor entries();

  /**
   * Whether a read with this query may find cells here: by default the stats' key range, time
   * range and read point; an immutable segment may also consult its row filter for gets.
   */
  boolean mayMatch(ScanQuery query) {
    return stats().mayMatch(query);
  }

  /** The newest timestamp of any cell here, tombstones included ({@link Long#MIN_VALUE} when empty). */
  long newestTimestamp() {
    return stats().maxTimestamp();
  }

  /** Frees what the segment owns (chunk-backed segments give their chunks back). */
  @Override
  protected void deallocate() {}

  @Override
  public String toString() {
    return getClass().getSimpleName() + "#" + id + "(" + kind() + ", " + stats().cellCount() + " cells)";
  }
}
