package io.bellows.engine;

import io.bellows.memstore.SegmentInfo;
import java.util.List;

/** The memory-store segments of one store (a family in a region), as a status page shows them. */
public record StoreSegments(long regionId, String family, List<SegmentInfo> segments) {
  public StoreSegments {
    segments = List.copyOf(segments);
  }
}
