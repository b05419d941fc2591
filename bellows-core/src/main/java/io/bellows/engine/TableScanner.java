package io.bellows.engine;

import io.bellows.cell.Cell;
import io.bellows.region.Region;
import io.bellows.region.RegionClosedException;
import io.bellows.region.RegionScanner;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import java.util.List;

/**
 * The rows of a table's regions in key order (from the last region down for a reversed query): one
 * region's scanner at a time, the next opened when one ends, each over the query with the rows still
 * allowed by its limit. Fails as the API says once the engine, or the table, is closed.
 */
final class TableScanner implements RowScanner {
  private final RowRouter router;
  private final TableRef table;
  private final ScanQuery query;
  private List<Region> regions;
  private int next;
  private long returned;
  private byte[] lastRow;
  private RegionScanner scanner;

  TableScanner(RowRouter router, TableRef table, ScanQuery query, List<Region> regions) {
    this.router = router;
    this.table = table;
    this.query = query;
    this.regions = inScanOrder(regions);
    this.next = 0;
    openNext();
  }

  /** Opens the next region's scanner, re-routing if a split replaced that region meanwhile. */
  private void openNext() {
    while (true) {
      Region r = regions.get(next);
      ScanQuery q = query;
      if (lastRow != null) {
        q = rest(q); // resuming after a split
      }
      if (returned > 0 && query.limit() != Long.MAX_VALUE) {
        q = q.toBuilder().limit(query.limit() - returned).build();
      }
      try {
        scanner = r.scanner(q);
        next++;
        return;
      } catch (RegionClosedException e) {
        reroute(r, e);
      }
    }
  }

  /**
   * A region of the scan closed: if a split replaced it, the scan goes on from the row after the
   * last one returned, over the regions that hold the rest (read at their own read points, as a
   * scan across regions is); else it fails as the API says.
   */
  private void reroute(Region r, RegionClosedException e) {
    RuntimeException cause = router.closedCause(table, e);
    if (!router.wasSplit(table, r)) {
      throw cause;
    }
    ScanQuery rest = lastRow == null ? query : rest(query);
    regions = inScanOrder(router.wantedRegions(table, rest));
    next = 0;
  }

  /** The query's rows not yet returned: after the last row returned (before it, when reversed). */
  private ScanQuery rest(ScanQuery q) {
    return query.reversed() ? q.toBuilder().stopRow(lastRow, false).build() : q.toBuilder().startRow(lastRow, false).build();
  }

  private List<Region> inScanOrder(List<Region> keyOrder) {
    if (!query.reversed()) {
      return keyOrder;
    }
    List<Region> out = new java.util.ArrayList<>(keyOrder);
    java.util.Collections.reverse(out);
    return out;
  }

  @Override
  public boolean nextRow(List<Cell> out) {
    while (scanner != null) {
      int before = out.size();
      try {
        if (scanner.nextRow(out)) {
          returned++;
          lastRow = out.get(before).row();
          return true;
        }
      } catch (RegionClosedException e) {
        out.subList(before, out.size()).clear();
        RegionScanner failed = scanner;
        scanner = null;
        failed.close();
        if (query.isSingleRow() && lastRow != null) {
          return false; // a get whose row was returned already
        }
        Region r = regions.get(next - 1);
        try {
          reroute(r, e);
        } catch (RuntimeException ex) {
          close();
          throw ex;
        }
        openNext();
        continue;
      }
      scanner.close();
      scanner = null;
      if (next < regions.size() && returned < query.limit()) {
        openNext();
      }
    }
    return false;
  }

  @Override
  public void close() {
    if (scanner != null) {
      scanner.close();
      scanner = null;
    }
  }
}
