package io.bellows.client;

import io.bellows.cell.Cell;
import io.bellows.region.NoSuchFamilyException;
import io.bellows.region.Region;
import io.bellows.region.RegionClosedException;
import io.bellows.region.RegionScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.config.Durability;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.function.Supplier;

/**
 * The {@link Table} of an engine: translates API objects into region calls. A handle belongs to
 * one table, not to a name: once its table is dropped every call fails with {@link
 * TableNotFoundException}, even after a new table of the same name is created (as in HBase).
 */
final class TableImpl implements Table {
  private final Bellows engine;
  private final String name;
  private final int tableId;

  TableImpl(Bellows engine, String name, int tableId) {
    this.engine = engine;
    this.name = name;
    this.tableId = tableId;
  }

  /** The table's region; fails if the table is gone, disabled, or replaced by a namesake. */
  private Region region() {
    Region r = engine.region(name);
    if (r.id() != tableId) {
      throw new TableNotFoundException("table '" + name + "' of this handle was dropped; the table"
          + " of that name now is a new one: get a new handle with getTable");
    }
    return r;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void put(Put put) {
    run(() -> {
      requireCells(put);
      region().mutate(put.row, put.cells(), -1, put.durability());
      return null;
    });
  }

  @Override
  public void put(List<Put> puts) {
    run(() -> {
      Region r = region();
      for (Put p : puts) {
        requireCells(p);
        r.check(p.row, p.cells());
      }
      for (Put p : puts) {
        r.mutate(p.row, p.cells(), -1, p.durability());
      }
      return null;
    });
  }

  @Override
  public Result get(Get get) {
    return run(() -> {
      ScanQuery q = query(get, ScanQuery.builder().singleRow(get.row())).build();
      try (RegionScanner s = region().scanner(q)) {
        List<Cell> cells = new ArrayList<>();
        if (!s.nextRow(cells)) {
          return Result.empty();
        }
        return new Result(get.row(), cells);
      }
    });
  }

  @Override
  public ResultScanner getScanner(Scan scan) {
    return run(() -> {
      ScanQuery.Builder b = query(scan, ScanQuery.builder()
          .startRow(scan.startRow(), scan.startInclusive())
          .stopRow(scan.stopRow(), scan.stopInclusive()));
      if (scan.limit() != Long.MAX_VALUE) {
        b.limit(scan.limit());
      }
      return new ClientScanner(region().scanner(b.build()), this);
    });
  }

  @Override
  public void delete(Delete delete) {
    run(() -> {
      applyDelete(region(), delete);
      return null;
    });
  }

  @Override
  public void delete(List<Delete> deletes) {
    run(() -> {
      Region r = region();
      for (Delete d : deletes) {
        r.check(d.row, d.cells());
      }
      for (Delete d : deletes) {
        applyDelete(r, d);
      }
      return null;
    });
  }

  private static void applyDelete(Region r, Delete d) {
    r.mutate(d.row, d.cells(), d.isWholeRow() ? d.timestamp() : -1, d.durability());
  }

  @Override
  public boolean checkAndPut(byte[] row, byte[] family, byte[] qualifier, byte[] expected, Put put) {
    return run(() -> {
      requireSameRow(row, put);
      requireCells(put);
      return region().checkAndMutate(row, family, Mutation.nonNull(qualifier), expected,
          put.cells(), -1, put.durability());
    });
  }

  @Override
  public boolean checkAndDelete(byte[] row, byte[] family, byte[] qualifier, byte[] expected, Delete delete) {
    return run(() -> {
      requireSameRow(row, delete);
      return region().checkAndMutate(row, family, Mutation.nonNull(qualifier), expected,
          delete.cells(), delete.isWholeRow() ? delete.timestamp() : -1, delete.durability());
    });
  }

  @Override
  public long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount) {
    return incrementColumnValue(row, family, qualifier, amount, Durability.USE_DEFAULT);
  }

  @Override
  public long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount, Durability durability) {
    return run(() -> {
      if (row == null || row.length == 0) {
        throw new IllegalArgumentException("row key must not be null or empty");
      }
      Mutation.checkFamily(family);
      return region().increment(row, family, Mutation.nonNull(qualifier), amount, durability);
    });
  }

  private ScanQuery.Builder query(Query<?> q, ScanQuery.Builder b) {
    Region r = region();
    for (Map.Entry<String, NavigableSet<byte[]>> e : q.columns().entrySet()) {
      byte[] family = Bytes.of(e.getKey());
      r.store(family); // unknown family: NoSuchFamilyException
      if (e.getValue() == null) {
        b.addFamily(family);
      } else {
        for (byte[] qual : e.getValue()) {
          b.addColumn(family, qual);
        }
      }
    }
    return b.timeRange(q.minTimestamp(), q.maxTimestamp()).maxVersions(q.maxVersions());
  }

  private static void requireCells(Mutation m) {
    if (m.isEmpty()) {
      throw new IllegalArgumentException("a put needs at least one column");
    }
  }

  private static void requireSameRow(byte[] row, Mutation m) {
    if (row == null || Bytes.compare(row, m.row) != 0) {
      throw new IllegalArgumentException("the mutation's row differs from the checked row");
    }
  }

  /**
   * The API's exception for a region found closed: the engine is closed, the table was disabled or
   * dropped (throws them), or else the region's own.
   */
  RuntimeException closed(RegionClosedException e) {
    engine.checkOpen();
    region();
    return e;
  }

  /** Runs an operation, translating region-level exceptions into the API's. */
  private <T> T run(Supplier<T> op) {
    try {
      return op.get();
    } catch (NoSuchFamilyException e) {
      throw new NoSuchColumnFamilyException(e.getMessage());
    } catch (RegionClosedException e) {
      throw closed(e);
    }
  }
}
