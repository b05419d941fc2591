package io.bellows.client;

import io.bellows.atomic.Condition;
import io.bellows.atomic.Outcome;
import io.bellows.cell.Cell;
import io.bellows.config.Durability;
import io.bellows.engine.Engine;
import io.bellows.engine.RowMutation;
import io.bellows.engine.RowOperation;
import io.bellows.engine.TableRef;
import io.bellows.scan.Consistency;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.util.Bytes;
import io.bellows.util.NoSuchColumnFamilyException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;

/**
 * The {@link Table} over an {@link Engine}: the one place where API objects (Put, Get, Scan,
 * Delete) become the engine's mutations and {@link ScanQuery}. A handle belongs to one table, not
 * to a name (see {@link TableRef}).
 */
final class TableImpl implements Table {
  private final Engine engine;
  private final TableRef table;

  TableImpl(Engine engine, TableRef table) {
    this.engine = engine;
    this.table = table;
  }

  @Override
  public String name() {
    return table.name();
  }

  @Override
  public void put(Put put) {
    put(List.of(put));
  }

  @Override
  public void put(List<Put> puts) {
    List<RowMutation> rows = new ArrayList<>(puts.size());
    for (Put p : puts) {
      requireCells(p);
      rows.add(RowMutation.of(p.row, p.cells(), p.durability()));
    }
    engine.mutate(table, rows);
  }

  @Override
  public Result get(Get get) {
    ScanQuery q = query(get, ScanQuery.builder().singleRow(get.row())).build();
    if (get.consistency() == Consistency.TIMELINE) { // read as a scan: its answer says whether it is stale
      List<Cell> cells = new ArrayList<>();
      try (RowScanner s = engine.scan(table, q)) {
        s.nextRow(cells);
        return cells.isEmpty() ? Result.empty(s.mayBeStale()) : new Result(get.row(), cells, s.mayBeStale());
      }
    }
    List<Cell> cells = engine.getAll(table, List.of(q)).get(0);
    return cells.isEmpty() ? Result.empty() : new Result(get.row(), cells);
  }

  /** In one engine call; a list with TIMELINE gets is read one get at a time, each saying whether it is stale. */
  @Override
  public List<Result> get(List<Get> gets) {
    if (gets.stream().anyMatch(g -> g.consistency() == Consistency.TIMELINE)) {
      List<Result> out = new ArrayList<>(gets.size());
      for (Get g : gets) {
        out.add(get(g));
      }
      return out;
    }
    List<ScanQuery> queries = new ArrayList<>(gets.size());
    for (Get g : gets) {
      queries.add(query(g, ScanQuery.builder().singleRow(g.row())).build());
    }
    List<List<Cell>> rows = engine.getAll(table, queries);
    List<Result> out = new ArrayList<>(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      out.add(rows.get(i).isEmpty() ? Result.empty() : new Result(gets.get(i).row(), rows.get(i)));
    }
    return out;
  }

  @Override
  public ResultScanner getScanner(Scan scan) {
    ScanQuery.Builder b = ScanQuery.builder();
    if (scan.isReversed()) { // the engine takes the range low to high
      b.startRow(scan.stopRow(), scan.stopInclusive()).stopRow(scan.startRow(), scan.startInclusive()).reversed(true);
    } else {
      b.startRow(scan.startRow(), scan.startInclusive()).stopRow(scan.stopRow(), scan.stopInclusive());
    }
    query(scan, b);
    if (scan.limit() != Long.MAX_VALUE) {
      b.limit(scan.limit());
    }
    return new ClientScanner(engine.scan(table, b.build()));
  }

  @Override
  public void delete(Delete delete) {
    delete(List.of(delete));
  }

  @Override
  public void delete(List<Delete> deletes) {
    List<RowMutation> rows = new ArrayList<>(deletes.size());
    for (Delete d : deletes) {
      rows.add(mutation(d));
    }
    engine.mutate(table, rows);
  }

  private static RowMutation mutation(Delete d) {
    return new RowMutation(d.row, d.cells(), d.isWholeRow() ? d.timestamp() : -1, d.durability());
  }

  @Override
  public boolean checkAndPut(byte[] row, byte[] family, byte[] qualifier, byte[] expected, Put put) {
    requireSameRow(row, put);
    requireCells(put);
    return engine.checkAndMutate(table, family, Mutation.nonNull(qualifier), expected,
        RowMutation.of(put.row, put.cells(), put.durability()));
  }

  @Override
  public boolean checkAndDelete(byte[] row, byte[] family, byte[] qualifier, byte[] expected, Delete delete) {
    requireSameRow(row, delete);
    return engine.checkAndMutate(table, family, Mutation.nonNull(qualifier), expected, mutation(delete));
  }

  @Override
  public long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount) {
    return incrementColumnValue(row, family, qualifier, amount, Durability.USE_DEFAULT);
  }

  @Override
  public long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount, Durability durability) {
    if (row == null || row.length == 0) {
      throw new IllegalArgumentException("row key must not be null or empty");
    }
    Mutation.checkFamily(family);
    return engine.increment(table, row, family, Mutation.nonNull(qualifier), amount, durability);
  }

  @Override
  public boolean checkAndMutate(Condition condition, Mutation mutation) {
    if (condition == null) {
      throw new IllegalArgumentException("checkAndMutate needs a condition");
    }
    RowMutation m;
    if (mutation instanceof Put p) {
      requireCells(p);
      m = RowMutation.of(p.row, p.cells(), p.durability());
    } else if (mutation instanceof Delete d) {
      m = mutation(d);
    } else {
      throw new IllegalArgumentException("checkAndMutate takes a Put or a Delete");
    }
    return engine.mutateRow(table, RowOperation.conditional(condition, m)).applied();
  }

  @Override
  public Result increment(Increment increment) {
    return update(increment);
  }

  @Override
  public Result append(Append append) {
    return update(append);
  }

  private Result update(Update u) {
    if (u.isEmpty()) {
      throw new IllegalArgumentException("an increment or append needs at least one column");
    }
    Outcome o = engine.mutateRow(table, RowOperation.updates(u.row, u.columns(), u.durability(), u.returnResults()));
    return o.values().isEmpty() ? Result.empty() : new Result(u.row, o.values());
  }

  private ScanQuery.Builder query(Query<?> q, ScanQuery.Builder b) {
    for (Map.Entry<String, NavigableSet<byte[]>> e : q.columns().entrySet()) {
      byte[] family = Bytes.of(e.getKey());
      if (table.descriptor().family(e.getKey()) == null) {
        throw new NoSuchColumnFamilyException("table '" + table.name() + "' has no column family '"
            + Bytes.toStringBinary(family) + "'");
      }
      if (e.getValue() == null) {
        b.addFamily(family);
      } else {
        for (byte[] qual : e.getValue()) {
          b.addColumn(family, qual);
        }
      }
    }
    return b.timeRange(q.minTimestamp(), q.maxTimestamp()).maxVersions(q.maxVersions()).filter(q.filter())
        .consistency(q.consistency());
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
}
