package io.bellows.cli.shell;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.client.Delete;
import io.bellows.client.Get;
import io.bellows.client.Mutation;
import io.bellows.client.Put;
import io.bellows.client.Query;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.engine.RegionInfo;
import io.bellows.util.TableNotFoundException;
import io.bellows.config.Durability;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A small in-memory stand-in for the engine, so the shell's loop and output can be tested before
 * the real engine exists. Deletes remove cells at once (no tombstones); timestamps come from a
 * counter starting at 1000, so output is deterministic. Also records calls to flush and compaction.
 * Not thread-safe.
 */
final class FakeEngine implements Engine {
  private final Map<String, FakeTable> tables = new LinkedHashMap<>();
  final List<String> calls = new ArrayList<>();
  private long clock = 1000;
  boolean closed;
  /** Thrown by the next flush, to show how engine failures are reported. */
  RuntimeException flushFailure;

  private FakeTable table(String name) {
    FakeTable t = tables.get(name);
    if (t == null) {
      throw new TableNotFoundException(name);
    }
    return t;
  }

  @Override
  public void createTable(TableDescriptor d) {
    createTable(d, List.of());
  }

  @Override
  public void createTable(TableDescriptor d, List<byte[]> splitKeys) {
    io.bellows.engine.SplitKeys.check(splitKeys);
    FakeTable t = new FakeTable(d);
    t.splitKeys = List.copyOf(splitKeys);
    tables.put(d.name(), t);
  }

  /** One region per split key plus one, numbered from 1 per table, sizes 0. */
  @Override
  public List<RegionInfo> regions(String name) {
    FakeTable t = table(name);
    List<RegionInfo> out = new ArrayList<>();
    byte[] start = Bytes.EMPTY;
    for (int i = 0; i <= t.splitKeys.size(); i++) {
      byte[] end = i < t.splitKeys.size() ? t.splitKeys.get(i) : Bytes.EMPTY;
      out.add(new RegionInfo(i + 1, start, end, 0, 0, 0));
      start = end;
    }
    return out;
  }

  @Override
  public TableDescriptor describeTable(String name) {
    return table(name).descriptor;
  }

  @Override
  public List<String> listTables() {
    return new ArrayList<>(tables.keySet());
  }

  @Override
  public boolean tableExists(String name) {
    return tables.containsKey(name);
  }

  @Override
  public void disableTable(String name) {
    table(name).enabled = false;
  }

  @Override
  public void enableTable(String name) {
    table(name).enabled = true;
  }

  @Override
  public boolean isTableEnabled(String name) {
    return table(name).enabled;
  }

  @Override
  public void dropTable(String name) {
    if (table(name).enabled) {
      throw new IllegalStateException("enabled");
    }
    tables.remove(name);
  }

  @Override
  public Table getTable(String name) {
    return table(name);
  }

  @Override
  public void flush(String t) {
    table(t);
    if (flushFailure != null) {
      RuntimeException e = flushFailure;
      flushFailure = null;
      throw e;
    }
    calls.add("flush " + t);
  }

  @Override
  public void compact(String t) {
    table(t);
    calls.add("compact " + t);
  }

  @Override
  public void majorCompact(String t) {
    table(t);
    calls.add("major_compact " + t);
  }

  @Override
  public void split(String t) {
    table(t);
    calls.add("split " + t);
  }

  @Override
  public void split(String t, byte[] key) {
    table(t);
    calls.add("split " + t + " " + io.bellows.util.Bytes.toStringBinary(key));
  }

  @Override
  public Map<String, Number> metrics() {
    return Map.of("wal.syncs", 3L, "flush.count", 1L);
  }

  @Override
  public Map<String, Map<String, Number>> storeMetrics(String t) {
    Map<String, Map<String, Number>> m = new TreeMap<>();
    table(t).descriptor.families().forEach(f -> m.put(f.name(), Map.of("files", 0)));
    return m;
  }

  @Override
  public void modifyTable(TableDescriptor next) {
    table(next.name()).descriptor = next;
  }

  /** Snapshots and bulk loads are tested against the real engine (ShellAdminTest). */
  @Override
  public long bulkLoad(String table, Map<String, List<java.nio.file.Path>> files) {
    throw new UnsupportedOperationException("bulk load");
  }

  @Override
  public void snapshot(String table, String name, boolean flush) {
    throw new UnsupportedOperationException("snapshot");
  }

  @Override
  public List<io.bellows.engine.SnapshotInfo> listSnapshots() {
    return List.of();
  }

  @Override
  public void deleteSnapshot(String name) {
    throw new UnsupportedOperationException("snapshot");
  }

  @Override
  public void cloneSnapshot(String name, String table) {
    throw new UnsupportedOperationException("snapshot");
  }

  @Override
  public void restoreSnapshot(String name) {
    throw new UnsupportedOperationException("snapshot");
  }

  @Override
  public void close() {
    closed = true;
  }

  private final class FakeTable implements Table {
    TableDescriptor descriptor;
    final NavigableSet<Cell> cells = new TreeSet<>(CellComparator.INSTANCE);
    boolean enabled = true;
    List<byte[]> splitKeys = List.of();

    FakeTable(TableDescriptor d) {
      this.descriptor = d;
    }

    @Override
    public String name() {
      return descriptor.name();
    }

    @Override
    public void put(Put put) {
      long now = -1;
      for (Cell c : put.cells()) {
        if (c.timestamp() == Mutation.LATEST_TIMESTAMP && now < 0) {
          now = clock++;
        }
        long ts = c.timestamp() == Mutation.LATEST_TIMESTAMP ? now : c.timestamp();
        cells.add(Cells.put(c.row(), c.family(), c.qualifier(), ts, c.value()));
      }
    }

    @Override
    public void put(List<Put> puts) {
      puts.forEach(this::put);
    }

    @Override
    public List<Result> get(List<Get> gets) {
      List<Result> out = new ArrayList<>();
      for (Get g : gets) {
        out.add(get(g));
      }
      return out;
    }

    @Override
    public Result get(Get get) {
      List<Cell> out = new ArrayList<>();
      for (Cell c : cells) {
        if (Bytes.compare(c.row(), get.row()) == 0) {
          out.add(c);
        }
      }
      return new Result(get.row(), select(out, get));
    }

    private List<Cell> select(List<Cell> rowCells, Query<?> q) {
      List<Cell> out = new ArrayList<>();
      Cell prev = null;
      int versions = 0;
      for (Cell c : rowCells) {
        String f = Bytes.str(c.family());
        if (!q.columns().isEmpty()) {
          if (!q.columns().containsKey(f)) {
            continue;
          }
          NavigableSet<byte[]> qs = q.columns().get(f);
          if (qs != null && !qs.contains(c.qualifier())) {
            continue;
          }
        }
        if (c.timestamp() < q.minTimestamp() || c.timestamp() >= q.maxTimestamp()) {
          continue;
        }
        versions = prev != null && prev.sameColumn(c) ? versions + 1 : 1;
        prev = c;
        int max = Math.min(q.maxVersions(), descriptor.family(f).maxVersions());
        if (versions <= max) {
          out.add(c);
        }
      }
      return out;
    }

    @Override
    public ResultScanner getScanner(Scan scan) {
      Map<String, List<Cell>> rows = new LinkedHashMap<>();
      for (Cell c : cells) {
        byte[] r = c.row();
        if (scan.startRow().length > 0 && Bytes.compare(r, scan.startRow()) < 0) {
          continue;
        }
        if (scan.stopRow().length > 0 && Bytes.compare(r, scan.stopRow()) >= 0) {
          continue;
        }
        rows.computeIfAbsent(Bytes.toStringBinary(r), k -> new ArrayList<>()).add(c);
      }
      List<Result> results = new ArrayList<>();
      for (List<Cell> rowCells : rows.values()) {
        List<Cell> sel = select(rowCells, scan);
        if (!sel.isEmpty() && results.size() < scan.limit()) {
          results.add(new Result(rowCells.get(0).row(), sel));
        }
      }
      Iterator<Result> it = results.iterator();
      return new ResultScanner() {
        @Override
        public Result next() {
          return it.hasNext() ? it.next() : null;
        }

        @Override
        public void close() {}
      };
    }

    @Override
    public void delete(Delete d) {
      if (d.isWholeRow()) {
        cells.removeIf(c -> Bytes.compare(c.row(), d.row()) == 0 && c.timestamp() <= d.timestamp());
        return;
      }
      for (Cell t : d.cells()) {
        if (t.type() == CellType.DELETE_FAMILY) {
          cells.removeIf(c -> c.sameRow(t) && c.sameFamily(t) && c.timestamp() <= t.timestamp());
        } else if (t.type() == CellType.DELETE_COLUMN) {
          cells.removeIf(c -> c.sameRow(t) && c.sameColumn(t) && c.timestamp() <= t.timestamp());
        } else {
          Cell victim = null;
          for (Cell c : cells) {
            if (c.sameRow(t) && c.sameColumn(t)
                && (t.timestamp() == Mutation.LATEST_TIMESTAMP || c.timestamp() == t.timestamp())) {
              victim = c;
              break;
            }
          }
          if (victim != null) {
            cells.remove(victim);
          }
        }
      }
    }

    @Override
    public void delete(List<Delete> deletes) {
      deletes.forEach(this::delete);
    }

    @Override
    public boolean checkAndPut(byte[] row, byte[] family, byte[] qualifier, byte[] expected, Put put) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean checkAndDelete(byte[] row, byte[] family, byte[] qualifier, byte[] expected, Delete delete) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean checkAndMutate(io.bellows.atomic.Condition condition, Mutation mutation) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Result increment(io.bellows.client.Increment increment) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Result append(io.bellows.client.Append append) {
      // One column, as the shell's append writes: the newest value with the suffix after it.
      io.bellows.atomic.ColumnUpdate add = append.columns().get(0);
      byte[] old = get(new Get(append.row()).addColumn(add.family(), add.qualifier())).getValue(add.family(), add.qualifier());
      byte[] v = java.util.Arrays.copyOf(old == null ? Bytes.EMPTY : old, (old == null ? 0 : old.length) + add.operand().length);
      System.arraycopy(add.operand(), 0, v, v.length - add.operand().length, add.operand().length);
      put(new Put(append.row()).addColumn(add.family(), add.qualifier(), v));
      return get(new Get(append.row()).addColumn(add.family(), add.qualifier()));
    }

    @Override
    public long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount) {
      byte[] old = get(new Get(row).addColumn(family, qualifier)).getValue(family, qualifier);
      if (old != null && old.length != 8) {
        throw new IllegalArgumentException("not a counter");
      }
      long v = (old == null ? 0 : Bytes.getLong(old, 0)) + amount;
      put(new Put(row).addColumn(family, qualifier, Bytes.toBytes(v)));
      return v;
    }

    @Override
    public long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount, Durability d) {
      return incrementColumnValue(row, family, qualifier, amount);
    }
  }

  /** What {@link #backgroundError()} answers; {@link #resume()} clears it. */
  io.bellows.util.BackgroundError backgroundError;

  @Override
  public java.util.Optional<io.bellows.util.BackgroundError> backgroundError() {
    return java.util.Optional.ofNullable(backgroundError);
  }

  @Override
  public void resume() {
    calls.add("resume");
    backgroundError = null;
  }

  /** What {@link #verify()} answers. */
  io.bellows.engine.VerifyReport verifyReport = new io.bellows.engine.VerifyReport(0, 0, 0, 0, 0, 0, java.util.List.of());

  @Override
  public io.bellows.engine.VerifyReport verify() {
    calls.add("verify");
    return verifyReport;
  }
}
