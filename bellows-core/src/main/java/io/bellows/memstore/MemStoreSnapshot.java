package io.bellows.memstore;

import io.bellows.scan.CellScanner;
import io.bellows.scan.MergingScanner;
import java.util.ArrayList;
import java.util.List;

/**
 * The frozen segments handed to a disk flush (the paper's "composite" view: several segments read
 * as one through a merging scanner, without building a merged index). Its stats are final because
 * every segment in it is sealed or immutable. Thread-safe.
 */
final class MemStoreSnapshot implements FlushSnapshot {
  private final long id;
  private final List<Segment> segments;
  private final SegmentStats stats;

  MemStoreSnapshot(long id, List<Segment> segments) {
    this.id = id;
    this.segments = List.copyOf(segments);
    List<SegmentStats> parts = new ArrayList<>();
    long index = 0;
    for (Segment s : segments) {
      SegmentStats st = s.stats();
      parts.add(st);
      index += st.indexBytes();
    }
    this.stats = SegmentStats.union(parts, index);
  }

  List<Segment> segments() {
    return segments;
  }

  SegmentStats stats() {
    return stats;
  }

  @Override
  public long id() {
    return id;
  }

  @Override
  public CellScanner scanner() {
    List<CellScanner> scanners = new ArrayList<>(segments.size());
    for (Segment s : segments) {
      CellScanner sc = s.tryScanner();
      if (sc == null) {
        scanners.forEach(CellScanner::close);
        throw new IllegalStateException("snapshot " + id + " was already released");
      }
      scanners.add(sc);
    }
    return new MergingScanner(scanners);
  }

  @Override
  public long cellCount() {
    return stats.cellCount();
  }

  @Override
  public MemStoreSize size() {
    return stats.size();
  }

  @Override
  public long maxSeqId() {
    return stats.maxSeqId();
  }

  @Override
  public long minSeqId() {
    return stats.minSeqId();
  }

  @Override
  public long minTimestamp() {
    return stats.minTimestamp();
  }

  @Override
  public long maxTimestamp() {
    return stats.maxTimestamp();
  }

  @Override
  public String toString() {
    return "snapshot " + id + " of " + segments;
  }
}
