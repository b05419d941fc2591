package io.bellows.hbase;

import io.bellows.atomic.Outcome;
import io.bellows.engine.Engine;
import io.bellows.engine.RowMutation;
import io.bellows.engine.RowOperation;
import io.bellows.engine.TableRef;
import io.bellows.scan.RowScanner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.filter.CompareFilter;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The supported part of HBase's {@link Table} over a Bellows engine; {@link Unsupported} makes it a
 * {@code Table} whose other methods throw, and turns Bellows' exceptions into HBase's ({@link
 * Exceptions}). Each method does what HBase documents, in the engine's terms: a row's mutation is
 * atomic, a batch is not (as in HBase); increments, appends, {@code RowMutations} and every form
 * of {@code checkAndMutate} are one engine operation each ({@link RowOperations}).
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

  /** The deprecated form of {@link #getDescriptor}, which HBase's shell calls to list a table's families. */
  @SuppressWarnings("deprecation")
  public org.apache.hadoop.hbase.HTableDescriptor getTableDescriptor() {
    return new org.apache.hadoop.hbase.HTableDescriptor(getDescriptor());
  }

  public org.apache.hadoop.hbase.client.RegionLocator getRegionLocator() {
    return BellowsRegionLocator.open(engine, name, conf);
  }

  public void close() {}

  // ------------------------------------------------------------------ reads

  public Result get(Get get) {
    TableRef t = ref();
    checkFamilies(t, get.familySet());
    try (RowScanner s = engine.scan(t, Convert.query(get))) {
      List<io.bellows.cell.Cell> cells = new ArrayList<>();
      s.nextRow(cells);
      return Convert.result(cells, s.mayBeStale());
    }
  }

  /** Each get on its own; failed ones are reported together, as HBase's batch does. */
  public Result[] get(List<Get> gets) throws IOException {
    Result[] out = new Result[gets.size()];
    Exceptions.Failures failures = new Exceptions.Failures();
    for (int i = 0; i < out.length; i++) {
      try {
        out[i] = get(gets.get(i));
      } catch (RuntimeException e) {
        failures.add(gets.get(i), e);
      }
    }
    failures.throwIfAny();
    return out;
  }

  public boolean exists(Get get) {
    return !get(get).isEmpty();
  }

  public boolean[] exists(List<Get> gets) throws IOException {
    Result[] results = get(gets);
    boolean[] out = new boolean[results.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = !results[i].isEmpty();
    }
    return out;
  }

  public boolean[] existsAll(List<Get> gets) throws IOException {
    return exists(gets);
  }

  public ResultScanner getScanner(Scan scan) {
    TableRef t = ref();
    checkFamilies(t, scan.getFamilyMap().keySet());
    return new Scanner(engine.scan(t, Convert.query(scan)), scan.getBatch());
  }

  /** As HBase: a read naming a family the table lacks is refused (the engine would read nothing of it). */
  private static void checkFamilies(TableRef t, java.util.Set<byte[]> families) {
    for (byte[] f : families) {
      if (t.descriptor().family(Bytes.toString(f)) == null) {
        throw new io.bellows.util.NoSuchColumnFamilyException("table '" + t.name() + "' has no column family '"
            + Bytes.toStringBinary(f) + "'");
      }
    }
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
    public Result next() throws IOException {
      return Exceptions.io(this::nextResult);
    }

    private Result nextResult() {
      if (pending.isEmpty()) {
        List<io.bellows.cell.Cell> cells = new ArrayList<>();
        if (!rows.nextRow(cells)) {
          return null;
        }
        boolean stale = rows.mayBeStale();
        if (batch <= 0 || cells.size() <= batch) {
          return Convert.result(cells, stale);
        }
        for (int i = 0; i < cells.size(); i += batch) {
          pending.add(Convert.result(cells.subList(i, Math.min(cells.size(), i + batch)), stale));
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
            try {
              next = Scanner.this.next();
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e); // as HBase's scanners' iterators do
            }
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

  /**
   * As HBase: the puts go as one batch; if it is refused for bad input (which the engine finds
   * before it applies anything), each put goes on its own and the failed ones are reported together
   * in a {@link RetriesExhaustedWithDetailsException}, the others applied.
   */
  public void put(List<Put> puts) throws IOException {
    TableRef t = ref();
    try {
      List<RowMutation> rows = new ArrayList<>();
      for (Put p : puts) {
        rows.add(Convert.mutation(p));
      }
      engine.mutate(t, rows);
      return;
    } catch (IllegalArgumentException | UnsupportedOperationException | io.bellows.util.NoSuchColumnFamilyException e) {
      // nothing of the batch was applied: find the failing puts one by one
    }
    Exceptions.Failures failures = new Exceptions.Failures();
    for (Put p : puts) {
      try {
        engine.mutate(t, List.of(Convert.mutation(p)));
      } catch (RuntimeException e) {
        failures.add(p, e);
      }
    }
    failures.throwIfAny();
  }

  public void delete(Delete delete) {
    engine.mutate(ref(), List.of(Convert.mutation(delete)));
  }

  /**
   * As HBase: applied deletes are removed from the list; the failed ones stay and are reported in a
   * {@link RetriesExhaustedWithDetailsException}. One batch unless bad input makes it go one by one.
   */
  public void delete(List<Delete> deletes) throws IOException {
    TableRef t = ref();
    try {
      List<RowMutation> rows = new ArrayList<>();
      for (Delete d : deletes) {
        rows.add(Convert.mutation(d));
      }
      engine.mutate(t, rows);
      deletes.clear();
      return;
    } catch (IllegalArgumentException | UnsupportedOperationException | io.bellows.util.NoSuchColumnFamilyException e) {
      // nothing of the batch was applied: find the failing deletes one by one
    }
    Exceptions.Failures failures = new Exceptions.Failures();
    Iterator<Delete> it = deletes.iterator();
    while (it.hasNext()) {
      Delete d = it.next();
      try {
        engine.mutate(t, List.of(Convert.mutation(d)));
        it.remove();
      } catch (RuntimeException e) {
        failures.add(d, e);
      }
    }
    failures.throwIfAny();
  }

  /** Puts, deletes, increments and appends of one row, atomically; the Result holds the increments' and appends' values. */
  public Result mutateRow(RowMutations rm) {
    return atomically(rm);
  }

  /** Each action on its own; results[i] is its Result, CheckAndMutateResult or translated error. */
  public void batch(List<? extends Row> actions, Object[] results) throws IOException {
    Exceptions.Failures failures = new Exceptions.Failures();
    for (int i = 0; i < actions.size(); i++) {
      Row a = actions.get(i);
      Object r;
      try {
        r = apply(a);
      } catch (RuntimeException e) {
        failures.add(a, e);
        r = failures.last();
      }
      if (results != null) {
        results[i] = r;
      }
    }
    failures.throwIfAny();
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
    if (a instanceof CheckAndMutate cam) {
      return checkAndMutate(cam);
    }
    if (a instanceof Increment || a instanceof Append || a instanceof RowMutations) {
      return atomically(a);
    }
    throw new UnsupportedOperationException(a.getClass().getSimpleName() + " in a batch is not supported by Bellows");
  }

  /**
   * An increment, append or RowMutations as one engine operation; the values it wrote as a Result.
   * A whole-row delete in a RowMutations takes the table's families from the handle.
   */
  private Result atomically(Row action) {
    TableRef t = ref();
    Outcome o = engine.mutateRow(t, RowOperations.operation(action, null, t.descriptor()));
    return Convert.result(o.values());
  }

  // ------------------------------------------------------------------ read-modify-write

  /** All columns in one atomic engine operation (one row lock, one WAL record). The Result holds the new values. */
  public Result increment(Increment inc) {
    return atomically(inc);
  }

  public long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount) {
    return engine.increment(ref(), row, family, qualifier, amount, io.bellows.config.Durability.USE_DEFAULT);
  }

  public long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount, Durability d) {
    return engine.increment(ref(), row, family, qualifier, amount, Convert.durability(d));
  }

  /** All columns in one atomic engine operation, as {@link #increment}. */
  public Result append(Append app) {
    return atomically(app);
  }

  /**
   * The condition (any operator, a time range, or a filter) and the action (put, delete, increment,
   * append, RowMutations) in one atomic engine operation. The result carries the Result of an
   * increment, append or RowMutations that applied, as HBase's does.
   */
  public CheckAndMutateResult checkAndMutate(CheckAndMutate cam) {
    TableRef t = ref();
    RowOperation op = RowOperations.operation(cam.getAction(), RowOperations.condition(cam), t.descriptor());
    Outcome o = engine.mutateRow(t, op);
    boolean returnsResult = !(cam.getAction() instanceof Put) && !(cam.getAction() instanceof Delete);
    return new CheckAndMutateResult(o.applied(), o.applied() && returnsResult ? Convert.result(o.values()) : null);
  }

  /** Each on its own (each atomic); failures are reported together, as HBase's batch does. */
  public List<CheckAndMutateResult> checkAndMutate(List<CheckAndMutate> cams) throws IOException {
    Exceptions.Failures failures = new Exceptions.Failures();
    List<CheckAndMutateResult> out = new ArrayList<>();
    for (CheckAndMutate c : cams) {
      try {
        out.add(checkAndMutate(c));
      } catch (RuntimeException e) {
        failures.add(c, e);
        out.add(null);
      }
    }
    failures.throwIfAny();
    return out;
  }

  public Table.CheckAndMutateBuilder checkAndMutate(byte[] row, byte[] family) {
    return new CheckBuilder(row, family);
  }

  public Table.CheckAndMutateWithFilterBuilder checkAndMutate(byte[] row, org.apache.hadoop.hbase.filter.Filter filter) {
    return new FilterCheckBuilder(row, filter);
  }

  // The pre-builder forms (deprecated in HBase 2, same meaning: HBase's operand order throughout).

  public boolean checkAndPut(byte[] row, byte[] family, byte[] qualifier, byte[] value, Put put) {
    return checkAndPut(row, family, qualifier, CompareOperator.EQUAL, value, put);
  }

  public boolean checkAndPut(byte[] row, byte[] family, byte[] qualifier, CompareFilter.CompareOp op, byte[] value, Put put) {
    return checkAndPut(row, family, qualifier, operator(op), value, put);
  }

  public boolean checkAndPut(byte[] row, byte[] family, byte[] qualifier, CompareOperator op, byte[] value, Put put) {
    return checkAndMutate(CheckAndMutate.newBuilder(row).ifMatches(family, qualifier, op, value).build(put)).isSuccess();
  }

  public boolean checkAndDelete(byte[] row, byte[] family, byte[] qualifier, byte[] value, Delete delete) {
    return checkAndDelete(row, family, qualifier, CompareOperator.EQUAL, value, delete);
  }

  public boolean checkAndDelete(byte[] row, byte[] family, byte[] qualifier, CompareFilter.CompareOp op, byte[] value,
      Delete delete) {
    return checkAndDelete(row, family, qualifier, operator(op), value, delete);
  }

  public boolean checkAndDelete(byte[] row, byte[] family, byte[] qualifier, CompareOperator op, byte[] value, Delete delete) {
    return checkAndMutate(CheckAndMutate.newBuilder(row).ifMatches(family, qualifier, op, value).build(delete)).isSuccess();
  }

  public boolean checkAndMutate(byte[] row, byte[] family, byte[] qualifier, CompareFilter.CompareOp op, byte[] value,
      RowMutations mutations) {
    return checkAndMutate(row, family, qualifier, operator(op), value, mutations);
  }

  public boolean checkAndMutate(byte[] row, byte[] family, byte[] qualifier, CompareOperator op, byte[] value,
      RowMutations mutations) {
    return checkAndMutate(CheckAndMutate.newBuilder(row).ifMatches(family, qualifier, op, value).build(mutations))
        .isSuccess();
  }

  private static CompareOperator operator(CompareFilter.CompareOp op) {
    return CompareOperator.valueOf(op.name());
  }

  /**
   * What HBase's two checkAndMutate builders share: each {@code then...} is one checkAndMutate of the
   * condition the builder collected (both builder interfaces declare these three methods).
   */
  private abstract class ConditionBuilder {
    abstract CheckAndMutate.Builder condition();

    public boolean thenPut(Put put) throws IOException {
      return Exceptions.io(() -> checkAndMutate(condition().build(put)).isSuccess());
    }

    public boolean thenDelete(Delete delete) throws IOException {
      return Exceptions.io(() -> checkAndMutate(condition().build(delete)).isSuccess());
    }

    public boolean thenMutate(RowMutations mutation) throws IOException {
      return Exceptions.io(() -> checkAndMutate(condition().build(mutation)).isSuccess());
    }
  }

  /** HBase's {@code checkAndMutate(row, family)} builder. */
  private final class CheckBuilder extends ConditionBuilder implements Table.CheckAndMutateBuilder {
    private final byte[] row;
    private final byte[] family;
    private byte[] qualifier;
    private CompareOperator op;
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
      this.op = Objects.requireNonNull(op, "compareOp is null");
      this.value = value;
      return this;
    }

    @Override
    CheckAndMutate.Builder condition() {
      Objects.requireNonNull(op, "condition is null: call ifNotExists, ifEquals or ifMatches first");
      return CheckAndMutate.newBuilder(row).ifMatches(family, qualifier, op, value).timeRange(timeRange);
    }

  }

  /** HBase's {@code checkAndMutate(row, filter)} builder. */
  private final class FilterCheckBuilder extends ConditionBuilder implements Table.CheckAndMutateWithFilterBuilder {
    private final byte[] row;
    private final org.apache.hadoop.hbase.filter.Filter filter;
    private TimeRange timeRange;

    FilterCheckBuilder(byte[] row, org.apache.hadoop.hbase.filter.Filter filter) {
      this.row = row;
      this.filter = filter;
    }

    @Override
    public Table.CheckAndMutateWithFilterBuilder timeRange(TimeRange tr) {
      this.timeRange = tr;
      return this;
    }

    @Override
    CheckAndMutate.Builder condition() {
      return CheckAndMutate.newBuilder(row).ifMatches(filter).timeRange(timeRange);
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
