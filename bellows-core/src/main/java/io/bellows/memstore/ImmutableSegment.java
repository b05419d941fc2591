package io.bellows.memstore;

import io.bellows.memstore.chunk.ChunkEntryCursor;
import io.bellows.scan.CellScanner;
import io.bellows.scan.RowRange;
import io.bellows.scan.ScanQuery;
import io.bellows.util.RefCounted;
import java.util.List;

/**
 * A segment that never changes: an {@link ImmutableIndex} (flat array, or a chunk index) and final
 * stats. Produced by flattening a sealed mutable segment, by merging indexes of several segments, or
 * by compacting them. Thread-safe (immutable).
 *
 * <p>Holds one reference on each of its {@code holds} (the MSLABs its array's cells view, or its
 * chunk index, which itself holds the data chunks), given up when the segment's last reference
 * goes; so chunks return to the pool only after the last scanner of the segment closed.
 */
public final class ImmutableSegment extends Segment {
  private final ImmutableIndex index;
  private final SegmentStats stats;
  private final List<RefCounted> holds;
  private final boolean chunkViews;
  private final SegmentRowFilter rowFilter;
  /** The rows held (null when empty), for gets' key-range checks without reaching into the chunks. */
  private final RowRange rows;

  /** A segment whose cells live in writers' arrays (owns nothing to free). */
  public ImmutableSegment(long id, ImmutableIndex index, SegmentStats stats) {
    this(id, index, stats, List.of(), false);
  }

  /**
   * @param holds references the caller hands over (one each), released when the segment is freed
   * @param chunkViews whether the index's cells view heap chunk memory
   */
  public ImmutableSegment(long id, ImmutableIndex index, SegmentStats stats, List<RefCounted> holds,
      boolean chunkViews) {
    this(id, index, stats, holds, chunkViews, null);
  }

  /**
   * @param rowFilter a Bloom filter of the segment's rows consulted by gets, or null for none (its
   *     heap bytes are expected to be part of {@code stats.indexBytes()})
   */
  ImmutableSegment(long id, ImmutableIndex index, SegmentStats stats, List<RefCounted> holds,
      boolean chunkViews, SegmentRowFilter rowFilter) {
    super(id);
    if (index.size() != stats.cellCount()) {
      throw new IllegalArgumentException("index holds " + index.size() + " cells, stats say " + stats.cellCount());
    }
    this.index = index;
    this.stats = stats;
    this.holds = List.copyOf(holds);
    this.chunkViews = chunkViews;
    this.rowFilter = rowFilter;
    this.rows = stats.firstRow() == null ? null : RowRange.of(stats.firstRow(), stats.lastRow());
  }

  /** The row filter, or null. */
  SegmentRowFilter rowFilter() {
    return rowFilter;
  }

  /** The stats' answer (read point, time and key range), then for a get (never for a scan) the row filter's. */
  @Override
  boolean mayMatch(ScanQuery query) {
    if (rows == null || !SegmentStats.inReadAndTimeRange(stats.minSeqId(), stats.maxTimestamp(), query)
        || !rows.overlaps(query)) {
      return false;
    }
    return rowFilter == null || !query.isSingleRow() || rowFilter.mightContainHash(query.rowHash());
  }

  public ImmutableIndex index() {
    return index;
  }

  @Override
  public SegmentKind kind() {
    return index.kind();
  }

  @Override
  public SegmentStats stats() {
    return stats;
  }

  @Override
  public boolean isStable() {
    return true;
  }

  @Override
  protected CellScanner cursor() {
    return new ImmutableIndexScanner(index, rowFilter);
  }

  @Override
  boolean chunkViews() {
    return chunkViews;
  }

  @Override
  List<RefCounted> dataHolders() {
    return holds;
  }

  @Override
  ChunkEntryCursor entries() {
    return index.entries();
  }

  @Override
  protected void deallocate() {
    for (RefCounted h : holds) {
      h.release();
    }
  }
}
