package io.bellows.engine;

import io.bellows.region.Region;
import io.bellows.util.Bytes;
import java.util.List;

/**
 * The open regions of one enabled table, in key order, and the routing of a row to the region
 * whose range holds it (start inclusive, end exclusive; the first starts and the last ends
 * unbounded). Immutable: the regions of a table do not change while it is enabled.
 */
final class TableRegions {
  private final int tableId;
  private final List<Catalog.Span> spans;
  private final List<Region> regions;

  TableRegions(int tableId, List<Catalog.Span> spans, List<Region> regions) {
    if (spans.size() != regions.size() || spans.isEmpty()) {
      throw new IllegalArgumentException(spans.size() + " spans for " + regions.size() + " regions");
    }
    this.tableId = tableId;
    this.spans = List.copyOf(spans);
    this.regions = List.copyOf(regions);
  }

  int tableId() {
    return tableId;
  }

  /** The regions in key order. */
  List<Region> regions() {
    return regions;
  }

  List<Catalog.Span> spans() {
    return spans;
  }

  int size() {
    return regions.size();
  }

  /** The index of the region holding {@code row}: the last whose start is &lt;= row. */
  int indexOf(byte[] row) {
    int lo = 1;
    int hi = spans.size() - 1;
    int found = 0;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (Bytes.compare(spans.get(mid).start(), row) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  Region regionOf(byte[] row) {
    return regions.get(indexOf(row));
  }
}
