package io.bellows.engine;

import io.bellows.atomic.Outcome;
import io.bellows.cell.Cell;
import io.bellows.metrics.MetricSet;
import io.bellows.region.Region;
import io.bellows.region.RegionClosedException;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Routes rows to the regions that hold them: writes, conditional row operations and scans. A
 * region closed by a split before an operation applied anything (a closed region refuses before it
 * changes anything) is no failure: the operation goes again to the daughter that holds the row now.
 */
final class RowRouter {
  private final EngineTables tables;
  private final MetricSet metrics;

  RowRouter(EngineTables tables, MetricSet metrics) {
    this.tables = tables;
    this.metrics = metrics;
  }

  /** See {@link LocalEngine#mutate(TableRef, List)}. */
  void mutate(TableRef table, List<RowMutation> rows) {
    if (rows.size() == 1) {
      RowMutation m = rows.get(0);
      onRow(table, m.row(), r -> {
        r.mutate(m.row(), m.cells(), m.wholeRowDeleteTs(), m.durability());
        return null;
      });
      return;
    }
    List<RowMutation> pending = rows;
    boolean validated = false;
    while (!pending.isEmpty()) {
      TableRegions t = tables.regionsOf(table);
      List<List<RowMutation>> byRegion = byRegion(t, pending);
      // Bad input fails before any region applies anything (one region checks its own batch).
      if (!validated && t.size() > 1) {
        for (int i = 0; i < t.size(); i++) {
          if (byRegion.get(i) != null) {
            for (RowMutation m : byRegion.get(i)) {
              t.regions().get(i).validate(new Region.RowWrite(m.row(), m.cells(), m.wholeRowDeleteTs(), m.durability()));
            }
          }
        }
      }
      validated = true;
      List<RowMutation> retry = new ArrayList<>();
      for (int i = 0; i < t.size(); i++) {
        List<RowMutation> part = byRegion.get(i);
        if (part == null) {
          continue;
        }
        Region r = t.regions().get(i);
        try {
          r.mutateBatch(writes(part));
        } catch (RegionClosedException e) {
          RuntimeException cause = closedCause(table, e);
          if (!wasSplit(table, r)) {
            throw cause;
          }
          retry.addAll(part.subList(e.rowsApplied(), part.size())); // the rest goes to the daughters
        }
      }
      pending = retry;
    }
  }

  /**
   * The rows split by region, each region's in batch order (null for a region with none). A loop of
   * its own, out of {@link #mutate(TableRef, List)}, so that the big method is not compiled on stack
   * (see {@code Region.checked}).
   */
  private static List<List<RowMutation>> byRegion(TableRegions t, List<RowMutation> rows) {
    List<List<RowMutation>> byRegion = new ArrayList<>(t.size());
    for (int i = 0; i < t.size(); i++) {
      byRegion.add(null);
    }
    for (RowMutation m : rows) {
      int i = t.indexOf(m.row());
      if (byRegion.get(i) == null) {
        byRegion.set(i, new ArrayList<>());
      }
      byRegion.get(i).add(m);
    }
    return byRegion;
  }

  private static List<Region.RowWrite> writes(List<RowMutation> rows) {
    List<Region.RowWrite> writes = new ArrayList<>(rows.size());
    for (RowMutation m : rows) {
      writes.add(new Region.RowWrite(m.row(), m.cells(), m.wholeRowDeleteTs(), m.durability()));
    }
    return writes;
  }

  Outcome mutateRow(TableRef table, RowOperation op) {
    RowMutation m = op.mutation();
    return onRow(table, m.row(), r -> r.mutateRow(m.row(), op.condition(), m.cells(), m.wholeRowDeleteTs(),
        op.updates(), m.durability(), op.returnValues()));
  }

  /** See {@link LocalEngine#scan}. */
  RowScanner scan(TableRef table, ScanQuery query) {
    return new TableScanner(this, table, query, wantedRegions(table, query));
  }

  /**
   * Counts rows read one by one, the denominator of read amplification: {@code read.gets}, {@code
   * read.returned.bytes} and {@code read.returned.pages} (4 KiB pages per row, rounded up, as the
   * SAC 2024 paper counts). Returns {@code rows}.
   */
  List<List<Cell>> countGets(List<List<Cell>> rows) {
    long bytes = 0;
    long pages = 0;
    for (List<Cell> row : rows) {
      long b = 0;
      for (Cell c : row) {
        b += c.length();
      }
      bytes += b;
      pages += (b + 4095) / 4096;
    }
    metrics.counter("read.gets").add(rows.size()); // counted from the first read on
    metrics.counter("read.returned.bytes").add(bytes);
    metrics.counter("read.returned.pages").add(pages);
    return rows;
  }

  /** The regions whose ranges meet the query's, in key order (at least one). */
  List<Region> wantedRegions(TableRef table, ScanQuery query) {
    TableRegions t = tables.regionsOf(table);
    List<Region> wanted = new ArrayList<>();
    for (int i = 0; i < t.size(); i++) {
      if (overlaps(t.spans().get(i), query)) {
        wanted.add(t.regions().get(i));
      }
    }
    if (wanted.isEmpty()) {
      wanted.add(t.regionOf(query.startRow())); // an empty range: one region answers it, with nothing
    }
    return wanted;
  }

  /** Whether a region's range and a query's row range can share a row. */
  private static boolean overlaps(Catalog.Span span, ScanQuery q) {
    byte[] start = q.startRow();
    if (span.end().length > 0 && start.length > 0) {
      int c = Bytes.compare(span.end(), start);
      if (c < 0 || (c == 0)) {
        return false; // the region ends at or before the first wanted row
      }
    }
    byte[] stop = q.stopRow();
    if (stop.length > 0 && span.start().length > 0) {
      int c = Bytes.compare(span.start(), stop);
      if (c > 0 || (c == 0 && !q.stopInclusive())) {
        return false; // the region starts after the last wanted row
      }
    }
    return true;
  }

  /**
   * Runs {@code op} on the region holding {@code row}. If that region was closed by a split before
   * the operation applied anything, the operation goes to the daughter that holds the row now.
   */
  private <T> T onRow(TableRef table, byte[] row, Function<Region, T> op) {
    while (true) {
      Region r = tables.regionsOf(table).regionOf(row);
      try {
        return op.apply(r);
      } catch (RegionClosedException e) {
        RuntimeException cause = closedCause(table, e);
        if (!wasSplit(table, r)) {
          throw cause;
        }
      }
    }
  }

  /** Whether a region the table still served is gone from its routing: a split replaced it. */
  boolean wasSplit(TableRef table, Region r) {
    return !tables.regionsOf(table).regions().contains(r);
  }

  /**
   * Why a region was found closed, as the API says it: the engine is closed, or the table was
   * disabled or dropped meanwhile (each throws), else the region's own exception.
   */
  RuntimeException closedCause(TableRef table, RegionClosedException e) {
    tables.checkOpen();
    tables.regionsOf(table);
    return e;
  }
}
