package io.bellows.hbase;

import io.bellows.engine.Engine;
import io.bellows.engine.RowMutation;
import io.bellows.engine.TableRef;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The supported part of HBase's {@link Table} over a Bellows engine; {@link Unsupported} makes it a
 * {@code Table} whose other methods throw. Each method does what HBase documents, in the engine's
 * terms: a row's mutation is atomic, a batch is not (as in HBase).
 */
public final class BellowsTable {
  private final Engine engine;
  private final TableName name;
  private final Configuration conf;

  BellowsTable(Engine engine, TableName name, Configuration conf) {
    this.engine = engine;
    this.name = name;
    this.conf = conf;
  }

  static Table create(Engine engine, TableName name, Configuration conf) {
    engine.table(Convert.name(name)); // fails now for a missing table, as HBase's first call would
    return Unsupported.proxy(Table.class, new BellowsTable(engine, name, conf));
  }

  private TableRef ref() {
    return engine.table(Convert.name(name));
  }

  public TableName getName() {
    return name;
  }

  public Configuration getConfiguration() {
    return conf;
  }

  public TableDescriptor getDescriptor() {
    return Convert.descriptor(engine.describeTable(Convert.name(name)));
  }

  public void close() {}

  // ------------------------------------------------------------------ reads

  public Result get(Get get) {
    try (RowScanner s = engine.scan(ref(), Convert.query(get))) {
      List<io.bellows.cell.Cell> cells = new ArrayList<>();
      s.nextRow(cells);
      return Convert.result(cells);
    }
  }

  public Result[] get(List<Get> gets) {
    Result[] out = new Result[gets.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = get(gets.get(i));
    }
    return out;
  }

  public boolean exists(Get get) {
    return !get(get).isEmpty();
  }

  public boolean[] exists(List<Get> gets) {
    boolean[] out = new boolean[gets.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = exists(gets.get(i));
    }
    return out;
  }

  public boolean[] existsAll(List<Get> gets) {
    return exists(gets);
  }

  public ResultScanner getScanner(Scan scan) {
    return new Scanner(engine.scan(ref(), Convert.query(scan)), scan.getBatch());
  }

  public ResultScanner getScanner(byte[] family) {
    return getScanner(new Scan().addFamily(family));
  }

  public ResultScanner getScanner(byte[] family, byte[] qualifier) {
    return getScanner(new Scan().addColumn(family, qualifier));
  }

  /** Rows of the engine's scanner as Results; with a batch size, a row comes in parts of that many cells. */
  private static final class Scanner implements ResultScanner {
    private final RowScanner rows;
    private final int batch;
    private final List<Result> pending = new ArrayList<>();

    Scanner(RowScanner rows, int batch) {
      this.rows = rows;
      this.batch = batch;
    }

    @Override
    public Result next() {
      if (pending.isEmpty()) {
        List<io.bellows.cell.Cell> cells = new ArrayList<>();
        if (!rows.nextRow(cells)) {
          return null;
        }
        if (batch <= 0 || cells.size() <= batch) {
          return Convert.result(cells);
        }
        for (int i = 0; i < cells.size(); i += batch) {
          pending.add(Convert.result(cells.subList(i, Math.min(cells.size(), i + batch))));
        }
      }
      return pending.remove(0);
    }

    @Override
    public void close() {
      rows.close();
    }

    @Override
    public boolean renewLease() {
      return true; // an embedded or streamed scan holds no lease
    }

    @Override
    public org.apache.hadoop.hbase.client.metrics.ScanMetrics getScanMetrics() {
      return null; // scan metrics were not asked for (Scan.setScanMetricsEnabled is not honoured)
    }

    @Override
    public Iterator<Result> iterator() {
      return new Iterator<>() {
        private Result next;

        @Override
        public boolean hasNext() {
          if (next == null) {
            next = Scanner.this.next();
          }
          return next != null;
        }

        @Override
        public Result next() {
          if (!hasNext()) {
            throw new java.util.NoSuchElementException();
          }
          Result r = next;
          next = null;
          return r;
        }
      };
    }
  }

  // ------------------------------------------------------------------ writes

  public void put(Put put) {
    engine.mutate(ref(), List.of(Convert.mutation(put)));
  }

  public void put(List<Put> puts) {
    List<RowMutation> rows = new ArrayList<>();
    for (Put p : puts) {
      rows.add(Convert.mutation(p));
    }
    engine.mutate(ref(), rows);
  }

  public void delete(Delete delete) {
    engine.mutate(ref(), List.of(Convert.mutation(delete)));
  }

  /** As HBase: applied deletes are removed from the list; the failed ones stay and are reported. */
  public void delete(List<Delete> deletes) throws IOException {
    List<Throwable> errors = new ArrayList<>();
    List<Row> failed = new ArrayList<>();
    Iterator<Delete> it = deletes.iterator();
    while (it.hasNext()) {
      Delete d = it.next();
      try {
        delete(d);
        it.remove();
      } catch (RuntimeException e) {
        errors.add(e);
        failed.add(d);
      }
    }
    throwIfFailed(errors, failed);
  }

  public Result mutateRow(RowMutations rm) {
    engine.mutate(ref(), List.of(Convert.mutation(rm)));
    return Result.EMPTY_RESULT;
  }

  public void batch(List<? extends Row> actions, Object[] results) throws IOException {
    List<Throwable> errors = new ArrayList<>();
    List<Row> failed = new ArrayList<>();
    for (int i = 0; i < actions.size(); i++) {
      Row a = actions.get(i);
      try {
        Object r = apply(a);
        if (results != null) {
          results[i] = r;
        }
      } catch (RuntimeException e) {
        if (results != null) {
          results[i] = e;
        }
        errors.add(e);
        failed.add(a);
      }
    }
    throwIfFailed(errors, failed);
  }

  private Object apply(Row a) {
    if (a instanceof Get g) {
      return get(g);
    }
    if (a instanceof Put p) {
      put(p);
      return Result.EMPTY_RESULT;
    }
    if (a instanceof Delete d) {
      delete(d);
      return Result.EMPTY_RESULT;
    }
    if (a instanceof Increment inc) {
      return increment(inc);
    }
    if (a instanceof Append app) {
      return append(app);
    }
    if (a instanceof RowMutations rm) {
      return mutateRow(rm);
    }
    throw new UnsupportedOperationException(a.getClass().getSimpleName() + " in a batch is not supported by Bellows");
  }

  private static void throwIfFailed(List<Throwable> errors, List<Row> failed) throws RetriesExhaustedWithDetailsException {
    if (!errors.isEmpty()) {
      List<String> where = new ArrayList<>();
      failed.forEach(r -> where.add("bellows"));
      throw new RetriesExhaustedWithDetailsException(errors, failed, where);
    }
  }

  // ------------------------------------------------------------------ read-modify-write

  /**
   * Each column of the increment is atomic on its own (one engine increment); the columns are not
   * applied as one (HBase's are). The Result holds the new values.
   */
  public Result increment(Increment inc) {
    if (!inc.getTimeRange().isAllTime()) {
      throw new UnsupportedOperationException("Increment.setTimeRange is not supported by Bellows");
    }
    List<Cell> out = new ArrayList<>();
    for (List<Cell> cs : inc.getFamilyCellMap().values()) {
      for (Cell c : cs) {
        byte[] f = CellUtil.cloneFamily(c);
        byte[] q = CellUtil.cloneQualifier(c);
        long v = engine.increment(ref(), inc.getRow(), f, q, Bytes.toLong(CellUtil.cloneValue(c)),
            Convert.durability(inc.getDurability()));
        out.add(new KeyValue(inc.getRow(), f, q, System.currentTimeMillis(), Bytes.toBytes(v)));
      }
    }
    return inc.isReturnResults() ? sorted(out) : Result.EMPTY_RESULT;
  }

  /** A Result's cells must be in HBase's cell order (its lookups search them). */
  private static Result sorted(List<Cell> cells) {
    cells.sort(org.apache.hadoop.hbase.CellComparator.getInstance());
    return Result.create(cells);
  }

  public long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount) {
    return engine.increment(ref(), row, family, qualifier, amount, io.bellows.config.Durability.USE_DEFAULT);
  }

  public long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount, Durability d) {
    return engine.increment(ref(), row, family, qualifier, amount, Convert.durability(d));
  }

  /**
   * Each column is appended atomically (a compare-and-set on its current value, retried); the
   * columns are not applied as one.
   */
  public Result append(Append app) {
    List<Cell> out = new ArrayList<>();
    for (List<Cell> cs : app.getFamilyCellMap().values()) {
      for (Cell c : cs) {
        byte[] f = CellUtil.cloneFamily(c);
        byte[] q = CellUtil.cloneQualifier(c);
        while (true) {
          Result cur = get(new Get(app.getRow()).addColumn(f, q));
          byte[] old = cur.getValue(f, q);
          byte[] value = old == null ? CellUtil.cloneValue(c) : Bytes.add(old, CellUtil.cloneValue(c));
          RowMutation m = Convert.mutation(new Put(app.getRow()).addColumn(f, q, value).setDurability(app.getDurability()));
          if (engine.checkAndMutate(ref(), f, q, old, m)) {
            out.add(new KeyValue(app.getRow(), f, q, System.currentTimeMillis(), value));
            break;
          }
        }
      }
    }
    return app.isReturnResults() ? sorted(out) : Result.EMPTY_RESULT;
  }

  public CheckAndMutateResult checkAndMutate(CheckAndMutate cam) {
    if (cam.hasFilter()) {
      throw new UnsupportedOperationException("CheckAndMutate with a filter condition is not supported by Bellows");
    }
    return new CheckAndMutateResult(check(cam.getRow(), cam.getFamily(), cam.getQualifier(), cam.getCompareOp(),
        cam.getValue(), cam.getTimeRange(), cam.getAction()), null);
  }

  public List<CheckAndMutateResult> checkAndMutate(List<CheckAndMutate> cams) {
    List<CheckAndMutateResult> out = new ArrayList<>();
    for (CheckAndMutate c : cams) {
      out.add(checkAndMutate(c));
    }
    return out;
  }

  public Table.CheckAndMutateBuilder checkAndMutate(byte[] row, byte[] family) {
    return new CheckBuilder(row, family);
  }

  /** Only "equal" (or "absent") conditions are atomic in the engine; other operators are refused. */
  private boolean check(byte[] row, byte[] family, byte[] qualifier, CompareOperator op, byte[] value, TimeRange tr,
      Row action) {
    if (op != CompareOperator.EQUAL) {
      throw new UnsupportedOperationException("checkAndMutate with " + op + " is not supported by Bellows (EQUAL is)");
    }
    if (tr != null && !tr.isAllTime()) {
      throw new UnsupportedOperationException("checkAndMutate with a time range is not supported by Bellows");
    }
    RowMutation m;
    if (action instanceof RowMutations rm) {
      m = Convert.mutation(rm);
    } else if (action instanceof Put || action instanceof Delete) {
      m = Convert.mutation((Mutation) action);
    } else {
      throw new UnsupportedOperationException("checkAndMutate of " + action.getClass().getSimpleName()
          + " is not supported by Bellows");
    }
    return engine.checkAndMutate(ref(), family, qualifier == null ? new byte[0] : qualifier, value, m);
  }

  private final class CheckBuilder implements Table.CheckAndMutateBuilder {
    private final byte[] row;
    private final byte[] family;
    private byte[] qualifier;
    private CompareOperator op = CompareOperator.EQUAL;
    private byte[] value;
    private TimeRange timeRange;

    CheckBuilder(byte[] row, byte[] family) {
      this.row = row;
      this.family = family;
    }

    @Override
    public Table.CheckAndMutateBuilder qualifier(byte[] q) {
      this.qualifier = q;
      return this;
    }

    @Override
    public Table.CheckAndMutateBuilder timeRange(TimeRange tr) {
      this.timeRange = tr;
      return this;
    }

    @Override
    public Table.CheckAndMutateBuilder ifNotExists() {
      this.op = CompareOperator.EQUAL;
      this.value = null;
      return this;
    }

    @Override
    public Table.CheckAndMutateBuilder ifMatches(CompareOperator op, byte[] value) {
      this.op = op;
      this.value = value;
      return this;
    }

    @Override
    public boolean thenPut(Put put) {
      return check(row, family, qualifier, op, value, timeRange, put);
    }

    @Override
    public boolean thenDelete(Delete delete) {
      return check(row, family, qualifier, op, value, timeRange, delete);
    }

    @Override
    public boolean thenMutate(RowMutations mutation) {
      return check(row, family, qualifier, op, value, timeRange, mutation);
    }
  }

  @Override
  public String toString() {
    return "BellowsTable(" + name + ")";
  }

  static String describe(byte[][] keys) {
    return Arrays.toString(keys);
  }
}
