package io.bellows.memstore;

/**
 * What one segment of a memory store is, for status pages: where it sits, its index form, cells and
 * bytes (footprint: data, cell objects and index). A copy; the segment may change right after.
 *
 * @param place ACTIVE (takes writes), PIPELINE (immutable, newest first), SNAPSHOT (being flushed)
 */
public record SegmentInfo(Place place, long id, SegmentKind kind, long cells, long bytes) {
  /** Where a segment sits in the memory store. */
  public enum Place { ACTIVE, PIPELINE, SNAPSHOT }

  static SegmentInfo of(Place place, Segment s) {
    SegmentStats st = s.stats();
    return new SegmentInfo(place, s.id(), s.kind(), st.cellCount(), st.footprint());
  }

  static SegmentInfo active(MutableSegment s) {
    return new SegmentInfo(Place.ACTIVE, s.id(), s.kind(), s.cellCount(), s.footprint());
  }
}
