package io.bellows.memstore;

import io.bellows.scan.CellScanner;

/**
 * A segment that never changes: an {@link ImmutableIndex} (flat array, or a chunk index) and final
 * stats. Produced by flattening a sealed mutable segment, by merging indexes of several segments, or
 * by compacting them. Thread-safe (immutable).
 */
public final class ImmutableSegment extends Segment {
  private final ImmutableIndex index;
  private final SegmentStats stats;

  public ImmutableSegment(long id, ImmutableIndex index, SegmentStats stats) {
    super(id);
    if (index.size() != stats.cellCount()) {
      throw new IllegalArgumentException("index holds " + index.size() + " cells, stats say " + stats.cellCount());
    }
    this.index = index;
    this.stats = stats;
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
    return new ImmutableIndexScanner(index);
  }
}
