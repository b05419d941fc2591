package io.bellows.region;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.filter.RowFilterRun;
import io.bellows.scan.CellScanner;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.scan.StoreScanner;
import io.bellows.store.Store;
import io.bellows.util.SourceClosedException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Rows of a region for one read: one {@link StoreScanner} per wanted family, merged by row. All
 * stores are read at the same read point, so a row never shows part of a mutation. The query's
 * filter, if any, is applied to each merged row (a fresh copy per region scan, so a page filter
 * counts per region) before it counts toward the limit. A reversed query reads the region's part
 * of the range forwards once, keeping the rows, and hands them out from the last (see
 * docs/design/scan.md, "Reversed scans"). Holds its scanners (and through them the files and
 * memory segments they read) until closed. Not thread-safe.
 */
public final class RegionScanner implements RowScanner {
  private final Region region;
  private final long readPoint;
  private final boolean registered;
  private final List<StoreScanner> scanners = new ArrayList<>();
  private final List<List<Cell>> heads = new ArrayList<>();
  private final long limit;
  /** The query's filter for this region, or null. */
  private final RowFilterRun filter;
  private final boolean reversed;
  /** A reversed scan's rows, read forwards; null until the first row is asked for. */
  private Deque<List<Cell>> reversedRows;
  private long rowsReturned;
  private boolean closed;

  RegionScanner(Region region, ScanQuery query, long readPoint, boolean registered) {
    this.region = region;
    this.readPoint = readPoint;
    this.registered = registered;
    this.limit = query.limit();
    this.filter = query.filter() == null ? null : new RowFilterRun(query.filter(), query.reversed());
    this.reversed = query.reversed();
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
        if (!ss.nextRow(head)) {
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
      if (!(reversed ? previousRow(row) : nextMergedRow(row))) {
        return false;
      }
      if (filter == null || filter.apply(row)) {
        out.addAll(row);
        rowsReturned++;
        return true;
      }
    }
    return false;
  }

  /** The next row of a reversed scan: the last of the region's rows not yet handed out. */
  private boolean previousRow(List<Cell> out) {
    if (reversedRows == null) {
      reversedRows = new ArrayDeque<>();
      List<Cell> row = new ArrayList<>();
      while (nextMergedRow(row)) {
        reversedRows.push(row);
        row = new ArrayList<>();
      }
    }
    List<Cell> row = reversedRows.poll();
    if (row == null) {
      return false;
    }
    out.addAll(row);
    return true;
  }

  /** The next row of the stores' merge, forwards, neither filtered nor counted. */
  private boolean nextMergedRow(List<Cell> out) {
    Cell minRowCell = null;
    for (List<Cell> h : heads) {
      if (h != null && (minRowCell == null || CellComparator.compareRows(h.get(0), minRowCell) < 0)) {
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
        heads.set(i, scanners.get(i).nextRow(next) ? next : null);
      }
    }
    if (contributors > 1) {
      out.subList(start, out.size()).sort(CellComparator.INSTANCE); // families in name order
    }
    return true;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    reversedRows = null;
    for (StoreScanner s : scanners) {
      s.close();
    }
    if (registered) {
      region.readerClosed(readPoint);
    }
  }
}
