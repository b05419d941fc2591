package io.bellows.region;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.filter.RowFilterRun;
import io.bellows.scan.CellScanner;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanCheck;
import io.bellows.scan.ScanQuery;
import io.bellows.scan.StoreScanner;
import io.bellows.store.Store;
import io.bellows.util.SourceClosedException;
import java.util.ArrayList;
import java.util.List;

/**
 * Rows of a region for one read: one {@link StoreScanner} per wanted family, merged by row. All
 * stores are read at the same read point, so a row never shows part of a mutation. The query's
 * filter, if any, is applied to each merged row (a fresh copy per region scan, so a page filter
 * counts per region) before it counts toward the limit. A reversed query walks every store
 * backwards ({@link StoreScanner#previousRow}) and merges by the largest row. Holds its scanners (and through them the files and
 * memory segments they read) until closed. Not thread-safe.
 */
public final class RegionScanner implements RowScanner {
  private final Region region;
  private final long readPoint;
  /** The reader's registration with the region's read points, or null (a writer's own read). */
  private final ReadPoints.Reader registration;
  private final List<StoreScanner> scanners = new ArrayList<>();
  private final List<List<Cell>> heads = new ArrayList<>();
  private final long limit;
  /** The query's filter for this region, or null. */
  private final RowFilterRun filter;
  private final boolean reversed;
  private final ScanCheck check;
  private final int checkEveryRows;
  /** Rows read from the stores, filtered out or not: what the scan check counts. */
  private long rowsRead;
  private long rowsReturned;
  private boolean closed;

  RegionScanner(Region region, ScanQuery query, long readPoint, ReadPoints.Reader registration) {
    this.region = region;
    this.readPoint = readPoint;
    this.registration = registration;
    this.limit = query.limit();
    this.filter = query.filter() == null ? null : new RowFilterRun(query.filter(), query.reversed());
    this.reversed = query.reversed();
    this.check = query.check();
    this.checkEveryRows = query.checkEveryRows();
    long now = region.servicesClockNow();
    query = region.bounded(query); // null: the query wants no row of this region
    try {
      for (Store s : query == null ? List.<Store>of() : region.stores().values()) {
        if (!query.wantsFamily(s.family().nameBytes())) {
          continue;
        }
        List<CellScanner> parts = s.scanners(query);
        StoreScanner ss = new StoreScanner(parts, query, s.family().nameBytes(), s.options().retention(), now);
        scanners.add(ss);
        List<Cell> head = new ArrayList<>();
        if (!advance(ss, head)) {
          head = null;
        }
        heads.add(head);
      }
    } catch (SourceClosedException e) {
      close(); // the region closed after its own check: the caller re-routes or fails the read
      throw new RegionClosedException("table '" + region.descriptor().name() + "' was closed during the scan");
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  public long readPoint() {
    return readPoint;
  }

  /**
   * Appends the cells of the next row to {@code out}; false when there are no more rows. Throws
   * {@link RegionClosedException} once the region is closed (table disabled or dropped, engine
   * closed): a scan does not outlive its table.
   */
  @Override
  public boolean nextRow(List<Cell> out) {
    if (closed || rowsReturned >= limit) {
      return false;
    }
    if (region.isClosedForWork()) {
      throw new RegionClosedException("table '" + region.descriptor().name() + "' was closed during the scan");
    }
    while (filter == null || !filter.done()) {
      List<Cell> row = new ArrayList<>();
      if (!nextMergedRow(row)) {
        return false;
      }
      if (++rowsRead % checkEveryRows == 0) {
        check.check();
      }
      if (filter == null || filter.apply(row)) {
        out.addAll(row);
        rowsReturned++;
        return true;
      }
    }
    return false;
  }

  /** The next row of the stores' merge (the previous one when reversed), neither filtered nor counted. */
  private boolean nextMergedRow(List<Cell> out) {
    Cell minRowCell = null; // the next row in scan order: the largest when reversed
    for (List<Cell> h : heads) {
      if (h != null && (minRowCell == null || before(h.get(0), minRowCell))) {
        minRowCell = h.get(0);
      }
    }
    if (minRowCell == null) {
      return false;
    }
    int start = out.size();
    int contributors = 0;
    for (int i = 0; i < heads.size(); i++) {
      List<Cell> h = heads.get(i);
      if (h != null && CellComparator.compareRows(h.get(0), minRowCell) == 0) {
        out.addAll(h);
        contributors++;
        List<Cell> next = new ArrayList<>();
        heads.set(i, advance(scanners.get(i), next) ? next : null);
      }
    }
    if (contributors > 1) {
      out.subList(start, out.size()).sort(CellComparator.INSTANCE); // families in name order
    }
    return true;
  }

  /** Whether row {@code a} comes before row {@code b} in this scan's order. */
  private boolean before(Cell a, Cell b) {
    int c = CellComparator.compareRows(a, b);
    return reversed ? c > 0 : c < 0;
  }

  private boolean advance(StoreScanner s, List<Cell> out) {
    return reversed ? s.previousRow(out) : s.nextRow(out);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (StoreScanner s : scanners) {
      s.close();
    }
    if (registration != null) {
      region.readerClosed(registration);
    }
  }
}
