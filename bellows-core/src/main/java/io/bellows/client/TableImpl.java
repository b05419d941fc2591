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

/** The {@link Table} of an engine: translates API objects into region calls. */
final class TableImpl implements Table {
  private final Bellows engine;
  private final String name;

  TableImpl(Bellows engine, String name) {
    this.engine = engine;
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void put(Put put) {
    run(() -> {
      requireCells(put);
      engine.region(name).mutate(put.row, put.cells(), -1, put.durability());
      return null;
    });
  }

  @Override
  public void put(List<Put> puts) {
    run(() -> {
      Region r = engine.region(name);
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
      try (RegionScanner s = engine.region(name).scanner(q)) {
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
      return new ClientScanner(engine.region(name).scanner(b.build()));
    });
  }

  @Override
  public void delete(Delete delete) {
    run(() -> {
      applyDelete(engine.region(name), delete);
      return null;
    });
  }

  @Override
  public void delete(List<Delete> deletes) {
    run(() -> {
      Region r = engine.region(name);
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
      return engine.region(name).checkAndMutate(row, family, Mutation.nonNull(qualifier), expected,
          put.cells(), -1, put.durability());
    });
  }

  @Override
  public boolean checkAndDelete(byte[] row, byte[] family, byte[] qualifier, byte[] expected, Delete delete) {
    return run(() -> {
      requireSameRow(row, delete);
      return engine.region(name).checkAndMutate(row, family, Mutation.nonNull(qualifier), expected,
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
      return engine.region(name).increment(row, family, Mutation.nonNull(qualifier), amount, durability);
    });
  }

  private ScanQuery.Builder query(Query<?> q, ScanQuery.Builder b) {
    Region r = engine.region(name);
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

  /** Runs an operation, translating region-level exceptions into the API's. */
  private <T> T run(Supplier<T> op) {
    try {
      return op.get();
    } catch (NoSuchFamilyException e) {
      throw new NoSuchColumnFamilyException(e.getMessage());
    } catch (RegionClosedException e) {
      engine.checkOpen();
      engine.region(name); // throws TableNotFound / TableNotEnabled
      throw e;
    }
  }
}
