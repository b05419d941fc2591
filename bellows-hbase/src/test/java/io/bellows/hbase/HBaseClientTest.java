package io.bellows.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableNotDisabledException;
import org.apache.hadoop.hbase.TableNotEnabledException;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FuzzyRowFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.SubstringComparator;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HBase client code, unchanged, on Bellows: a connection from {@code ConnectionFactory} with the
 * one configuration line, and scenarios whose expected results are HBase's documented ones. Where
 * Bellows differs (docs/ARCHITECTURE.md#semantics) the assertion says so.
 */
class HBaseClientTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] G = Bytes.toBytes("g");
  private static final byte[] Q = Bytes.toBytes("q");

  @TempDir Path dir;
  private Connection conn;
  private Admin admin;

  static Configuration conf(Path dir) {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.client.connection.impl", "io.bellows.hbase.BellowsConnection");
    conf.set("bellows.data.dir", dir.toString());
    return conf;
  }

  @BeforeEach
  void open() throws IOException {
    HadoopLogin.assumeWorks();
    conn = ConnectionFactory.createConnection(conf(dir));
    admin = conn.getAdmin();
    admin.createTable(TableDescriptorBuilder.newBuilder(T)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F).setMaxVersions(3).build())
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(G))
        .build(), new byte[][] {Bytes.toBytes("m")});
  }

  @AfterEach
  void close() throws IOException {
    if (conn == null) {
      return; // skipped before opening (see HadoopLogin)
    }
    conn.close();
    assertThat(SharedEngines.users(dir)).isZero();
  }

  private static Put put(String row, byte[] fam, String qual, long ts, String value) {
    return new Put(Bytes.toBytes(row)).addColumn(fam, Bytes.toBytes(qual), ts, Bytes.toBytes(value));
  }

  private static List<String> rows(ResultScanner s) {
    List<String> out = new ArrayList<>();
    for (Result r : s) {
      out.add(Bytes.toString(r.getRow()));
    }
    s.close();
    return out;
  }

  @Test
  void theConnectionIsBellowsAndSharesOneEnginePerDirectory() throws IOException {
    assertThat(conn).isInstanceOf(BellowsConnection.class);
    try (Connection second = ConnectionFactory.createConnection(conf(dir))) {
      assertThat(SharedEngines.users(dir)).isEqualTo(2);
      try (Table t = conn.getTable(T)) {
        t.put(put("r", F, "q", 1, "v"));
      }
      assertThat(second.getTable(T).get(new Get(Bytes.toBytes("r"))).getValue(F, Q)).isEqualTo(Bytes.toBytes("v"));
    }
    assertThat(SharedEngines.users(dir)).isEqualTo(1);
  }

  @Test
  void versionsAndDeletesAsHBaseDocumentsThem() throws IOException {
    Table t = conn.getTable(T);
    for (long ts = 1; ts <= 4; ts++) {
      t.put(put("r", F, "q", ts, "v" + ts));
    }
    Result r = t.get(new Get(Bytes.toBytes("r")).readVersions(10));
    List<Cell> cells = r.getColumnCells(F, Q);
    assertThat(cells).extracting(Cell::getTimestamp).as("VERSIONS => 3 keeps the newest three").containsExactly(4L, 3L, 2L);
    assertThat(Bytes.toString(CellUtil.cloneValue(r.getColumnLatestCell(F, Q)))).isEqualTo("v4");
    assertThat(Bytes.toString(r.getRow())).isEqualTo("r");

    t.delete(new Delete(Bytes.toBytes("r")).addColumn(F, Q, 4));
    assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("r"))).getValue(F, Q))).isEqualTo("v3");
    assertThat(t.get(new Get(Bytes.toBytes("r")).readVersions(10)).getColumnCells(F, Q))
        .as("Bellows difference 1: a deleted version keeps its slot, v1 does not come back")
        .extracting(Cell::getTimestamp).containsExactly(3L, 2L);
    t.delete(new Delete(Bytes.toBytes("r")).addColumns(F, Q, 2));
    assertThat(t.get(new Get(Bytes.toBytes("r")).readVersions(10)).getColumnCells(F, Q)).extracting(Cell::getTimestamp)
        .containsExactly(3L);
    t.delete(new Delete(Bytes.toBytes("r")));
    assertThat(t.exists(new Get(Bytes.toBytes("r")))).isFalse();
    assertThat(t.get(new Get(Bytes.toBytes("r"))).isEmpty()).isTrue();
  }

  @Test
  void timeRangesAndTtl() throws IOException {
    admin.createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf("ttl"))
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F).setTimeToLive(1).build()).build());
    Table t = conn.getTable(TableName.valueOf("ttl"));
    long now = System.currentTimeMillis();
    t.put(put("old", F, "q", now - 60_000, "gone"));
    t.put(put("new", F, "q", now + 60_000, "here"));
    assertThat(rows(t.getScanner(new Scan()))).as("TTL 1 s hides the minute-old cell").containsExactly("new");
    Table u = conn.getTable(T);
    u.put(put("r", F, "q", 10, "a"));
    u.put(put("r", F, "q", 20, "b"));
    assertThat(Bytes.toString(u.get(new Get(Bytes.toBytes("r")).setTimeRange(0, 15)).getValue(F, Q))).isEqualTo("a");
  }

  @Test
  void scansWithBoundsReversedLimitBatchAndPrefix() throws IOException {
    Table t = conn.getTable(T);
    for (String r : new String[] {"a", "b", "c", "m", "n", "x"}) {
      t.put(put(r, F, "q1", 1, r).addColumn(F, Bytes.toBytes("q2"), 1, Bytes.toBytes(r)).addColumn(G, Q, 1, Bytes.toBytes(r)));
    }
    assertThat(rows(t.getScanner(new Scan().withStartRow(Bytes.toBytes("b")).withStopRow(Bytes.toBytes("n")))))
        .containsExactly("b", "c", "m");
    assertThat(rows(t.getScanner(new Scan().withStartRow(Bytes.toBytes("b"), false).withStopRow(Bytes.toBytes("n"), true))))
        .containsExactly("c", "m", "n");
    assertThat(rows(t.getScanner(new Scan().setReversed(true)))).as("reversed, across both regions")
        .containsExactly("x", "n", "m", "c", "b", "a");
    assertThat(rows(t.getScanner(new Scan().setReversed(true).withStartRow(Bytes.toBytes("n")).withStopRow(Bytes.toBytes("b")))))
        .as("reversed: start row inclusive from the top, stop row exclusive").containsExactly("n", "m", "c");
    assertThat(rows(t.getScanner(new Scan().setReversed(true).setLimit(2)))).containsExactly("x", "n");
    assertThat(rows(t.getScanner(new Scan().setRowPrefixFilter(Bytes.toBytes("m"))))).containsExactly("m");
    try (ResultScanner s = t.getScanner(new Scan().withStartRow(Bytes.toBytes("a")).withStopRow(Bytes.toBytes("a"), true).setBatch(2))) {
      Result first = s.next();
      Result second = s.next();
      assertThat(first.size()).isEqualTo(2);
      assertThat(second.size()).isEqualTo(1);
      assertThat(s.next()).isNull();
    }
    try (ResultScanner s = t.getScanner(G)) {
      assertThat(s.next().rawCells()).hasSize(1);
    }
  }

  @Test
  void filtersThroughHBasesClasses() throws IOException {
    Table t = conn.getTable(T);
    for (String r : new String[] {"a1", "a2", "b1", "n1", "n2"}) {
      t.put(put(r, F, "col1", 1, "value-" + r).addColumn(F, Bytes.toBytes("other"), 1, Bytes.toBytes("x")));
    }
    assertThat(rows(t.getScanner(new Scan().setFilter(new PrefixFilter(Bytes.toBytes("a")))))).containsExactly("a1", "a2");
    assertThat(rows(t.getScanner(new Scan().setFilter(new PageFilter(1)))))
        .as("PageFilter counts per region, as in HBase: one row from each of the two regions").containsExactly("a1", "n1");
    Result r = t.getScanner(new Scan().setFilter(new ColumnPrefixFilter(Bytes.toBytes("col")))).next();
    assertThat(r.rawCells()).hasSize(1);
    assertThat(rows(t.getScanner(new Scan().setFilter(
        new ValueFilter(CompareOperator.EQUAL, new SubstringComparator("VALUE-N")))))).containsExactly("n1", "n2");
    assertThat(rows(t.getScanner(new Scan().setFilter(
        new ValueFilter(CompareOperator.EQUAL, new RegexStringComparator("-b.$")))))).containsExactly("b1");
    SingleColumnValueFilter scvf = new SingleColumnValueFilter(F, Bytes.toBytes("col1"), CompareOperator.GREATER_OR_EQUAL,
        new BinaryComparator(Bytes.toBytes("value-b")));
    scvf.setFilterIfMissing(true);
    assertThat(rows(t.getScanner(new Scan().setFilter(scvf)))).containsExactly("b1", "n1", "n2");
    FilterList or = new FilterList(FilterList.Operator.MUST_PASS_ONE, new PrefixFilter(Bytes.toBytes("a2")),
        new PrefixFilter(Bytes.toBytes("n2")));
    assertThat(rows(t.getScanner(new Scan().setFilter(or).setReversed(true)))).containsExactly("n2", "a2");
    Result keys = t.get(new Get(Bytes.toBytes("a1")).setFilter(new KeyOnlyFilter()));
    assertThat(keys.getValue(F, Bytes.toBytes("col1"))).isEmpty();
    assertThatThrownBy(() -> t.getScanner(new Scan().setFilter(new FuzzyRowFilter(List.of(new Pair<>(Bytes.toBytes("a"), new byte[] {0}))))))
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("FuzzyRowFilter");
  }

  @Test
  void checkAndMutateIncrementsAndAppends() throws IOException {
    Table t = conn.getTable(T);
    byte[] row = Bytes.toBytes("r");
    assertThat(t.checkAndMutate(row, F).qualifier(Q).ifNotExists().thenPut(put("r", F, "q", 1, "first"))).isTrue();
    assertThat(t.checkAndMutate(row, F).qualifier(Q).ifNotExists().thenPut(put("r", F, "q", 2, "second"))).isFalse();
    assertThat(t.checkAndMutate(row, F).qualifier(Q).ifEquals(Bytes.toBytes("first"))
        .thenMutate(RowMutations.of(List.of(put("r", F, "q", 3, "third"), new Delete(row).addColumns(G, Q))))).isTrue();
    assertThat(t.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(F, Q, Bytes.toBytes("nope"))
        .build(new Delete(row))).isSuccess()).isFalse();
    assertThat(t.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(F, Q, Bytes.toBytes("third"))
        .build(put("r", G, "q", 1, "ok"))).isSuccess()).isTrue();

    assertThat(t.incrementColumnValue(row, F, Bytes.toBytes("n"), 5)).isEqualTo(5);
    Result inc = t.increment(new Increment(row).addColumn(F, Bytes.toBytes("n"), 2).addColumn(F, Bytes.toBytes("m"), 1));
    assertThat(Bytes.toLong(inc.getValue(F, Bytes.toBytes("n")))).isEqualTo(7);
    assertThat(Bytes.toLong(inc.getValue(F, Bytes.toBytes("m")))).isEqualTo(1);
    t.append(new Append(row).addColumn(F, Bytes.toBytes("s"), Bytes.toBytes("ab")));
    Result app = t.append(new Append(row).addColumn(F, Bytes.toBytes("s"), Bytes.toBytes("cd")));
    assertThat(Bytes.toString(app.getValue(F, Bytes.toBytes("s")))).isEqualTo("abcd");
    t.mutateRow(RowMutations.of(List.of(put("r", F, "a", 1, "1"), new Delete(row).addColumns(F, Bytes.toBytes("s")))));
    Result after = t.get(new Get(row));
    assertThat(after.getValue(F, Bytes.toBytes("a"))).isEqualTo(Bytes.toBytes("1"));
    assertThat(after.getValue(F, Bytes.toBytes("s"))).isNull();
  }

  @Test
  void checkAndMutateComparesInHBasesOperandOrder() throws IOException {
    Table t = conn.getTable(T);
    byte[] row = Bytes.toBytes("r");
    t.put(put("r", F, "q", 1, "m"));
    // HBase compares the given value with the stored one: LESS applies when the given value is less.
    assertThat(t.checkAndMutate(row, F).qualifier(Q).ifMatches(CompareOperator.LESS, Bytes.toBytes("a"))
        .thenPut(put("r", G, "less", 1, "x"))).as("'a' < 'm'").isTrue();
    assertThat(t.checkAndMutate(row, F).qualifier(Q).ifMatches(CompareOperator.GREATER, Bytes.toBytes("a"))
        .thenPut(put("r", G, "greater", 1, "x"))).isFalse();
    assertThat(t.checkAndMutate(row, F).qualifier(Q).ifMatches(CompareOperator.GREATER_OR_EQUAL, Bytes.toBytes("m"))
        .thenPut(put("r", G, "ge", 1, "x"))).isTrue();
    assertThat(t.checkAndMutate(row, F).qualifier(Q).ifMatches(CompareOperator.NOT_EQUAL, null)
        .thenPut(put("r", G, "present", 1, "x"))).as("NOT_EQUAL null: the column is there").isTrue();
    assertThat(t.checkAndMutate(row, F).qualifier(Bytes.toBytes("absent")).ifMatches(CompareOperator.NOT_EQUAL, Bytes.toBytes("v"))
        .thenPut(put("r", G, "ne-absent", 1, "x"))).as("an absent column matches no value").isFalse();
    assertThat(t.checkAndMutate(row, F).qualifier(Q).ifMatches(CompareOperator.NO_OP, Bytes.toBytes("m"))
        .thenPut(put("r", G, "noop", 1, "x"))).isFalse();
    assertThat(t.checkAndPut(row, F, Q, CompareOperator.LESS_OR_EQUAL, Bytes.toBytes("m"), put("r", G, "old-api", 1, "x")))
        .as("the pre-builder form means the same").isTrue();
    assertThat(t.checkAndDelete(row, F, Q, org.apache.hadoop.hbase.filter.CompareFilter.CompareOp.GREATER,
        Bytes.toBytes("z"), new Delete(row).addColumns(G, Bytes.toBytes("old-api")))).as("'z' > 'm'").isTrue();
    Result r = t.get(new Get(row).addFamily(G));
    assertThat(r.getFamilyMap(G).keySet()).extracting(Bytes::toString).containsExactly("ge", "less", "present");

    assertThatThrownBy(() -> t.checkAndMutate(row, F).qualifier(Q).thenPut(put("r", G, "x", 1, "x")))
        .as("a condition must be given, as in HBase").isInstanceOf(NullPointerException.class);
  }

  @Test
  void checkAndMutateWithATimeRangeOrAFilter() throws IOException {
    Table t = conn.getTable(T);
    byte[] row = Bytes.toBytes("r");
    t.put(put("r", F, "q", 10, "old"));
    t.put(put("r", F, "q", 20, "new"));
    assertThat(t.checkAndMutate(row, F).qualifier(Q).ifEquals(Bytes.toBytes("old")).thenPut(put("r", G, "a", 1, "x"))).isFalse();
    assertThat(t.checkAndMutate(row, F).qualifier(Q).timeRange(TimeRange.between(0, 15)).ifEquals(Bytes.toBytes("old"))
        .thenPut(put("r", G, "a", 1, "x"))).as("the newest version in [0, 15) is 'old'").isTrue();
    assertThat(t.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(F, Q).timeRange(TimeRange.from(30))
        .build(put("r", G, "b", 1, "x"))).isSuccess()).as("nothing from 30 on").isTrue();

    assertThat(t.checkAndMutate(row, new SingleColumnValueFilter(F, Q, CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes("new"))))
        .thenPut(put("r", G, "c", 1, "x"))).isTrue();
    assertThat(t.checkAndMutate(row, new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes("nothing"))))
        .thenDelete(new Delete(row))).isFalse();
    assertThat(t.checkAndMutate(row, new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes("new"))))
        .timeRange(TimeRange.between(0, 15)).thenPut(put("r", G, "d", 1, "x"))).as("'new' is outside [0, 15)").isFalse();
    FilterList both = new FilterList(new PrefixFilter(Bytes.toBytes("r")),
        new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes("old"))));
    assertThat(t.checkAndMutate(CheckAndMutate.newBuilder(row).ifMatches(both).timeRange(TimeRange.between(0, 15))
        .build(RowMutations.of(List.of(put("r", G, "e", 1, "x"), new Delete(row).addColumns(G, Bytes.toBytes("a"))))))
        .isSuccess()).isTrue();
    Result r = t.get(new Get(row).addFamily(G));
    assertThat(r.getFamilyMap(G).keySet()).extracting(Bytes::toString).containsExactly("b", "c", "e");
  }

  @Test
  void checkAndMutateOfAnIncrementAppendOrRowMutationsReturnsItsResult() throws IOException {
    Table t = conn.getTable(T);
    byte[] row = Bytes.toBytes("r");
    byte[] n = Bytes.toBytes("n");
    byte[] s = Bytes.toBytes("s");
    CheckAndMutateResult inc = t.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(F, Q)
        .build(new Increment(row).addColumn(F, n, 5).addColumn(G, n, 7)));
    assertThat(inc.isSuccess()).isTrue();
    assertThat(Bytes.toLong(inc.getResult().getValue(F, n))).isEqualTo(5);
    assertThat(Bytes.toLong(inc.getResult().getValue(G, n))).isEqualTo(7);
    CheckAndMutateResult app = t.checkAndMutate(CheckAndMutate.newBuilder(row).ifMatches(F, n, CompareOperator.NOT_EQUAL,
        Bytes.toBytes(0L)).build(new Append(row).addColumn(F, s, Bytes.toBytes("ab"))));
    assertThat(app.isSuccess()).isTrue();
    assertThat(Bytes.toString(app.getResult().getValue(F, s))).isEqualTo("ab");
    CheckAndMutateResult mixed = t.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(F, s, Bytes.toBytes("ab"))
        .build(RowMutations.of(List.of(put("r", F, "q", 1, "set"), new Increment(row).addColumn(F, n, -1),
            new Append(row).addColumn(F, s, Bytes.toBytes("c"))))));
    assertThat(mixed.isSuccess()).isTrue();
    assertThat(Bytes.toLong(mixed.getResult().getValue(F, n))).isEqualTo(4);
    assertThat(Bytes.toString(mixed.getResult().getValue(F, s))).isEqualTo("abc");
    assertThat(Bytes.toString(t.get(new Get(row)).getValue(F, Q))).isEqualTo("set");
    CheckAndMutateResult refused = t.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(F, Q)
        .build(new Increment(row).addColumn(F, n, 100)));
    assertThat(refused.isSuccess()).isFalse();
    assertThat(Bytes.toLong(t.get(new Get(row)).getValue(F, n))).isEqualTo(4);
    assertThat(t.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(F, Bytes.toBytes("x")).build(put("r", F, "x", 1, "1")))
        .getResult()).as("a put has no result").isNull();

    List<CheckAndMutateResult> results = t.checkAndMutate(List.of(
        CheckAndMutate.newBuilder(row).ifEquals(F, Q, Bytes.toBytes("set")).build(put("r", G, "q", 1, "1")),
        CheckAndMutate.newBuilder(row).ifEquals(F, Q, Bytes.toBytes("other")).build(put("r", G, "q", 2, "2"))));
    assertThat(results).extracting(CheckAndMutateResult::isSuccess).containsExactly(true, false);
    assertThatThrownBy(() -> t.checkAndMutate(List.of(
        CheckAndMutate.newBuilder(row).ifNotExists(Bytes.toBytes("nosuchfamily"), Q).build(put("r", G, "z", 1, "1")),
        CheckAndMutate.newBuilder(row).ifNotExists(F, Bytes.toBytes("y")).build(put("r", F, "y", 1, "1")))))
        .isInstanceOf(RetriesExhaustedWithDetailsException.class)
        .satisfies(e -> assertThat(((RetriesExhaustedWithDetailsException) e).getCause(0))
            .isInstanceOf(org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException.class));
    assertThat(t.get(new Get(row)).getValue(F, Bytes.toBytes("y"))).as("the other one applied").isNotNull();
  }

  @Test
  void anIncrementOrAppendOfSeveralColumnsIsOneAtomicOperation() throws IOException, InterruptedException {
    Table t = conn.getTable(T);
    byte[] row = Bytes.toBytes("r");
    Result r = t.increment(new Increment(row).addColumn(F, Bytes.toBytes("a"), 3).addColumn(G, Bytes.toBytes("b"), -4)
        .addColumn(F, Bytes.toBytes("c"), 1));
    assertThat(r.rawCells()).extracting(c -> Bytes.toString(CellUtil.cloneFamily(c)) + ":" + Bytes.toString(CellUtil.cloneQualifier(c)))
        .as("in HBase's cell order").containsExactly("f:a", "f:c", "g:b");
    assertThat(Bytes.toLong(r.getValue(G, Bytes.toBytes("b")))).isEqualTo(-4);
    assertThat(t.increment(new Increment(row).addColumn(F, Bytes.toBytes("a"), 1).setReturnResults(false)).isEmpty()).isTrue();
    assertThat(Bytes.toLong(t.get(new Get(row)).getValue(F, Bytes.toBytes("a")))).isEqualTo(4);

    t.put(put("r", F, "text", 1, "abc"));
    assertThatThrownBy(() -> t.increment(new Increment(row).addColumn(F, Bytes.toBytes("a"), 1).addColumn(F, Bytes.toBytes("text"), 1)))
        .isInstanceOf(DoNotRetryIOException.class).hasMessageContaining("f:text").hasMessageContaining("8-byte counter");
    assertThat(Bytes.toLong(t.get(new Get(row)).getValue(F, Bytes.toBytes("a")))).as("nothing of it applied").isEqualTo(4);

    Result app = t.append(new Append(row).addColumn(F, Bytes.toBytes("text"), Bytes.toBytes("d"))
        .addColumn(G, Bytes.toBytes("new"), Bytes.toBytes("x")));
    assertThat(Bytes.toString(app.getValue(F, Bytes.toBytes("text")))).isEqualTo("abcd");
    assertThat(Bytes.toString(app.getValue(G, Bytes.toBytes("new")))).isEqualTo("x");

    t.put(put("r", F, "v", 10, "ten").addColumn(F, Bytes.toBytes("v"), 20, Bytes.toBytes("twenty")));
    Result ranged = t.append(new Append(row).addColumn(F, Bytes.toBytes("v"), Bytes.toBytes("!")).setTimeRange(0, 15));
    assertThat(Bytes.toString(ranged.getValue(F, Bytes.toBytes("v")))).as("from the newest version in [0, 15)").isEqualTo("ten!");

    Object[] results = new Object[3];
    t.batch(List.of(new Increment(row).addColumn(F, Bytes.toBytes("a"), 10), new Append(row).addColumn(G, Bytes.toBytes("new"), Bytes.toBytes("y")),
        CheckAndMutate.newBuilder(row).ifEquals(G, Bytes.toBytes("new"), Bytes.toBytes("xy")).build(put("r", G, "ok", 1, "1"))), results);
    assertThat(Bytes.toLong(((Result) results[0]).getValue(F, Bytes.toBytes("a")))).isEqualTo(14);
    assertThat(Bytes.toString(((Result) results[1]).getValue(G, Bytes.toBytes("new")))).isEqualTo("xy");
    assertThat(((CheckAndMutateResult) results[2]).isSuccess()).isTrue();
    Result mutated = t.mutateRow(RowMutations.of(List.of(new Delete(row).addFamily(F), put("r", G, "after", 1, "1"),
        new Increment(row).addColumn(G, Bytes.toBytes("count"), 2))));
    assertThat(Bytes.toLong(mutated.getValue(G, Bytes.toBytes("count")))).as("a RowMutations returns its increments").isEqualTo(2);
    assertThat(t.get(new Get(row).addFamily(F)).isEmpty()).isTrue();
    assertThatThrownBy(() -> t.mutateRow(RowMutations.of(List.of(new Delete(row).addFamily(G),
        new Increment(row).addColumn(G, Bytes.toBytes("count"), 2))))).as("the delete would hide the increment")
        .isInstanceOf(DoNotRetryIOException.class).hasMessageContaining("g:count");
    assertThat(t.mutateRow(RowMutations.of(List.of(new Delete(row)))).isEmpty()).isTrue();
    assertThat(t.exists(new Get(row))).as("a whole-row delete inside RowMutations").isFalse();
  }

  @Test
  void bellowsExceptionsReachTheCallerAsHBases() throws IOException {
    Table t = conn.getTable(T);
    byte[] missing = Bytes.toBytes("nosuchfamily");
    assertThatThrownBy(() -> t.put(new Put(Bytes.toBytes("r")).addColumn(missing, Q, Bytes.toBytes("v"))))
        .isInstanceOf(org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException.class).hasMessageContaining("nosuchfamily");
    assertThatThrownBy(() -> t.incrementColumnValue(Bytes.toBytes("r"), missing, Q, 1))
        .isInstanceOf(org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException.class);
    assertThatThrownBy(() -> conn.getTable(TableName.valueOf("nope"))).isInstanceOf(TableNotFoundException.class);
    assertThatThrownBy(() -> admin.disableTable(TableName.valueOf("nope"))).isInstanceOf(TableNotFoundException.class);
    assertThatThrownBy(() -> admin.createTable(TableDescriptorBuilder.newBuilder(T).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
        .build())).isInstanceOf(TableExistsException.class);
    assertThatThrownBy(() -> admin.enableTable(T)).isInstanceOf(TableNotDisabledException.class);
    assertThatThrownBy(() -> admin.deleteTable(T)).isInstanceOf(TableNotDisabledException.class);
    assertThatThrownBy(() -> admin.createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf("bad")).setColumnFamily(
        ColumnFamilyDescriptorBuilder.newBuilder(F).setBlocksize(16 * 1024).setValue("MIN_BLOCKSIZE", "64K")
            .setValue("MAX_ENTRIES_PER_BLOCK", "8").build()).build()))
        .as("bad input").isInstanceOf(DoNotRetryIOException.class).hasMessageContaining("MIN_BLOCKSIZE");

    List<Put> puts = List.of(put("a", F, "q", 1, "1"), new Put(Bytes.toBytes("b")).addColumn(missing, Q, Bytes.toBytes("x")),
        put("c", F, "q", 1, "3"));
    assertThatThrownBy(() -> t.put(puts)).isInstanceOf(RetriesExhaustedWithDetailsException.class).satisfies(e -> {
      RetriesExhaustedWithDetailsException r = (RetriesExhaustedWithDetailsException) e;
      assertThat(r.getNumExceptions()).isEqualTo(1);
      assertThat(Bytes.toString(r.getRow(0).getRow())).isEqualTo("b");
      assertThat(r.getCause(0)).isInstanceOf(org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException.class);
    });
    assertThat(t.exists(new Get(Bytes.toBytes("a"))) && t.exists(new Get(Bytes.toBytes("c")))).as("the others applied").isTrue();
    assertThatThrownBy(() -> t.get(List.of(new Get(Bytes.toBytes("a")), new Get(Bytes.toBytes("a")).addFamily(missing))))
        .isInstanceOf(RetriesExhaustedWithDetailsException.class);

    admin.disableTable(T);
    assertThatThrownBy(() -> t.put(put("a", F, "q", 2, "2"))).isInstanceOf(TableNotEnabledException.class);
    assertThatThrownBy(() -> t.getScanner(new Scan())).isInstanceOf(TableNotEnabledException.class);
    assertThatThrownBy(() -> admin.disableTable(T)).isInstanceOf(TableNotEnabledException.class);
    admin.enableTable(T);

    // Any other Bellows failure is an IOException with it as the cause: here, the engine is closed.
    Path other = dir.resolveSibling(dir.getFileName() + "-other");
    Table orphan;
    try (Connection second = ConnectionFactory.createConnection(conf(other))) {
      second.getAdmin().createTable(TableDescriptorBuilder.newBuilder(T).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
      orphan = second.getTable(T);
    }
    assertThatThrownBy(() -> orphan.get(new Get(Bytes.toBytes("a")))).isInstanceOf(IOException.class)
        .hasCauseInstanceOf(io.bellows.util.EngineClosedException.class);
  }

  @Test
  void batchReportsPartialFailuresAndDeleteListKeepsTheFailedOnes() throws IOException, InterruptedException {
    Table t = conn.getTable(T);
    byte[] missing = Bytes.toBytes("nosuchfamily");
    List<Row> actions = List.of(put("a", F, "q", 1, "1"), new Put(Bytes.toBytes("b")).addColumn(missing, Q, Bytes.toBytes("x")),
        new Get(Bytes.toBytes("a")), put("c", F, "q", 1, "3"));
    Object[] results = new Object[actions.size()];
    assertThatThrownBy(() -> t.batch(actions, results)).isInstanceOf(RetriesExhaustedWithDetailsException.class)
        .satisfies(e -> assertThat(((RetriesExhaustedWithDetailsException) e).getNumExceptions()).isEqualTo(1));
    assertThat(results[0]).isInstanceOf(Result.class);
    assertThat(results[1]).isInstanceOf(Throwable.class);
    assertThat(results[3]).isInstanceOf(Result.class);
    assertThat(t.exists(new Get(Bytes.toBytes("c")))).as("the rest of the batch applied").isTrue();

    List<Delete> deletes = new ArrayList<>(List.of(new Delete(Bytes.toBytes("a")),
        new Delete(Bytes.toBytes("c")).addFamily(missing)));
    assertThatThrownBy(() -> t.delete(deletes)).isInstanceOf(RetriesExhaustedWithDetailsException.class);
    assertThat(deletes).as("applied deletes are removed from the list").hasSize(1);
    assertThat(t.exists(new Get(Bytes.toBytes("a")))).isFalse();
  }

  @Test
  void bufferedMutatorFlushesAndReportsToItsListener() throws IOException {
    List<Row> failed = new ArrayList<>();
    BufferedMutatorParams params = new BufferedMutatorParams(T).writeBufferSize(1024)
        .listener((e, m) -> {
          for (int i = 0; i < e.getNumExceptions(); i++) {
            failed.add(e.getRow(i));
            assertThat(e.getCause(i)).isInstanceOf(org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException.class);
          }
        });
    try (BufferedMutator m = conn.getBufferedMutator(params)) {
      assertThat(m.getWriteBufferSize()).isEqualTo(1024);
      m.mutate(put("a", F, "q", 1, "1"));
      assertThat(conn.getTable(T).exists(new Get(Bytes.toBytes("a")))).as("buffered, not yet written").isFalse();
      m.flush();
      assertThat(conn.getTable(T).exists(new Get(Bytes.toBytes("a")))).isTrue();
      for (int i = 0; i < 50; i++) {
        m.mutate(put("row" + i, F, "q", 1, "value" + i));
      }
      assertThat(conn.getTable(T).exists(new Get(Bytes.toBytes("row0")))).as("the buffer filled and was written").isTrue();
      m.mutate(new Put(Bytes.toBytes("bad")).addColumn(Bytes.toBytes("nosuchfamily"), Q, Bytes.toBytes("x")));
    }
    assertThat(failed).hasSize(1);
    assertThat(conn.getTable(T).exists(new Get(Bytes.toBytes("row49")))).as("close flushed").isTrue();
  }

  /**
   * HBase's descriptor says NONE for a family that sets no compression (it cannot be told from one
   * that names NONE), so such a family is uncompressed, as in HBase, not Bellows' default LZ4.
   */
  @Test
  void aFamilyWithoutCompressionIsUncompressedAsInHBase() throws IOException {
    TableName unset = TableName.valueOf("compression_unset");
    admin.createTable(TableDescriptorBuilder.newBuilder(unset)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F).build()).build());
    assertThat(admin.getDescriptor(unset).getColumnFamily(F).getCompressionType()).isEqualTo(Compression.Algorithm.NONE);
  }

  /** HBase's COMPRESSION_COMPACT_MAJOR and _MINOR reach Bellows' knobs of the same names and come back. */
  @Test
  void compactionCompressionsPassBothWays() throws IOException {
    TableName n = TableName.valueOf("compaction_compression");
    admin.createTable(TableDescriptorBuilder.newBuilder(n).setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F)
        .setCompressionType(Compression.Algorithm.LZ4).setMajorCompactionCompressionType(Compression.Algorithm.ZSTD)
        .setMinorCompactionCompressionType(Compression.Algorithm.NONE).build()).build());
    var f = admin.getDescriptor(n).getColumnFamily(F);
    assertThat(f.getCompressionType()).isEqualTo(Compression.Algorithm.LZ4);
    assertThat(f.getMajorCompactionCompressionType()).isEqualTo(Compression.Algorithm.ZSTD);
    assertThat(f.getMinorCompactionCompressionType()).isEqualTo(Compression.Algorithm.NONE);
    io.bellows.schema.ColumnFamilyDescriptor bellows = Convert.descriptor(admin.getDescriptor(n)).family("f");
    assertThat(bellows.get(io.bellows.config.Knobs.COMPRESSION_COMPACT))
        .isEqualTo(io.bellows.config.CompactionCompression.SAME);
    assertThat(bellows.get(io.bellows.config.Knobs.COMPRESSION_COMPACT_MAJOR))
        .isEqualTo(io.bellows.config.CompactionCompression.ZSTD);
    assertThat(bellows.get(io.bellows.config.Knobs.COMPRESSION_COMPACT_MINOR))
        .isEqualTo(io.bellows.config.CompactionCompression.NONE);

    TableName unset = TableName.valueOf("compaction_compression_unset");
    admin.createTable(TableDescriptorBuilder.newBuilder(unset).setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F)
        .setCompressionType(Compression.Algorithm.LZ4).build()).build());
    var g = admin.getDescriptor(unset).getColumnFamily(F);
    assertThat(g.getValue("COMPRESSION_COMPACT_MAJOR")).as("unset stays unset").isNull();
    assertThat(g.getMajorCompactionCompressionType()).isEqualTo(Compression.Algorithm.LZ4);
    assertThatThrownBy(() -> admin.createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf("gz_major"))
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F)
            .setMajorCompactionCompressionType(Compression.Algorithm.GZ).build()).build()))
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("GZ");
  }

  /**
   * Table sizes Bellows has pass both ways; what would change what reads return or how data is
   * protected is refused; HBase's storage hints are accepted without effect.
   */
  @Test
  void tableAndFamilyAttributesAreAppliedRefusedOrAcceptedAsDocumented() throws IOException {
    TableName n = TableName.valueOf("attributes");
    admin.createTable(TableDescriptorBuilder.newBuilder(n).setMemStoreFlushSize(2L << 20).setMaxFileSize(1L << 30)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F)
            .setDataBlockEncoding(org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.FAST_DIFF)
            .setCacheDataOnWrite(true).setScope(1).build()).build());
    TableDescriptor d = admin.getDescriptor(n);
    assertThat(d.getMemStoreFlushSize()).isEqualTo(2L << 20);
    assertThat(d.getMaxFileSize()).isEqualTo(1L << 30);
    io.bellows.schema.TableDescriptor bellows = Convert.descriptor(d);
    assertThat(bellows.flushSize()).isEqualTo(2L << 20);
    assertThat(bellows.get(io.bellows.config.Knobs.MAX_FILESIZE)).isEqualTo(1L << 30);
    Table t = conn.getTable(n);
    t.put(put("r", F, "q", 1, "v"));
    assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("r"))).getValue(F, Bytes.toBytes("q")))).isEqualTo("v");

    assertThatThrownBy(() -> admin.createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf("read_only"))
        .setReadOnly(true).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build()))
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("READONLY");
    assertThatThrownBy(() -> admin.createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf("new_versions"))
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F).setNewVersionBehavior(true).build()).build()))
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("NEW_VERSION_BEHAVIOR");
    assertThatThrownBy(() -> admin.createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf("encrypted"))
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F).setEncryptionType("AES").build()).build()))
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("ENCRYPTION");
    assertThat(admin.tableExists(TableName.valueOf("encrypted"))).isFalse();
  }

  @Test
  void adminCreatesDescribesSplitsAndRefusesWhatItCannotDo() throws IOException {
    TableName n = TableName.valueOf("described");
    admin.createTable(TableDescriptorBuilder.newBuilder(n).setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F)
        .setMaxVersions(5).setMinVersions(1).setTimeToLive(3600).setCompressionType(Compression.Algorithm.ZSTD)
        .setBloomFilterType(BloomType.ROWCOL).setBlocksize(16 * 1024)
        .setInMemoryCompaction(org.apache.hadoop.hbase.MemoryCompactionPolicy.EAGER).build()).build());
    TableDescriptor d = admin.getDescriptor(n);
    var f = d.getColumnFamily(F);
    assertThat(f.getMaxVersions()).isEqualTo(5);
    assertThat(f.getMinVersions()).isEqualTo(1);
    assertThat(f.getTimeToLive()).isEqualTo(3600);
    assertThat(f.getCompressionType()).isEqualTo(Compression.Algorithm.ZSTD);
    assertThat(f.getBloomFilterType()).isEqualTo(BloomType.ROWCOL);
    assertThat(f.getBlocksize()).isEqualTo(16 * 1024);
    assertThat(f.getInMemoryCompaction()).isEqualTo(org.apache.hadoop.hbase.MemoryCompactionPolicy.EAGER);
    assertThat(admin.tableExists(n)).isTrue();
    assertThat(admin.listTableNames()).contains(n, T);
    assertThat(admin.getRegions(T)).hasSize(2);

    Table t = conn.getTable(n);
    for (int i = 0; i < 20; i++) {
      t.put(put("r" + (char) ('a' + i), F, "q", 1, "v"));
    }
    admin.flush(n);
    admin.split(n, Bytes.toBytes("rk"));
    assertThat(admin.getRegions(n)).hasSize(2);
    admin.majorCompact(n);
    assertThat(rows(t.getScanner(new Scan().setReversed(true).setLimit(3)))).containsExactly("rt", "rs", "rr");

    admin.disableTable(n);
    assertThat(admin.isTableDisabled(n)).isTrue();
    admin.enableTable(n);
    admin.disableTable(n);
    admin.deleteTable(n);
    assertThat(admin.tableExists(n)).isFalse();

    assertThatThrownBy(() -> admin.isSnapshotFinished(new SnapshotDescription("s", T)))
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("Admin.isSnapshotFinished");
    assertThatThrownBy(() -> admin.getClusterMetrics().getLiveServerMetrics())
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("getLiveServerMetrics");
    assertThatThrownBy(() -> conn.getTable(T).coprocessorService(Bytes.toBytes("r")))
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("Table.coprocessorService");
    assertThatThrownBy(() -> admin.createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf("snappy"))
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F).setCompressionType(Compression.Algorithm.SNAPPY).build())
        .build())).isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("SNAPPY");
  }

  @Test
  void dynamicBlockSizeSettingsPassAsFamilyValues() throws IOException {
    TableName n = TableName.valueOf("dynamic");
    admin.createTable(TableDescriptorBuilder.newBuilder(n).setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F)
        .setBlocksize(32 * 1024).setValue("MIN_BLOCKSIZE", "2K").setValue("MAX_ENTRIES_PER_BLOCK", "32").build())
        .build());
    var f = admin.getDescriptor(n).getColumnFamily(F);
    assertThat(f.getBlocksize()).isEqualTo(32 * 1024);
    assertThat(f.getValue("MIN_BLOCKSIZE")).isEqualTo("2048");
    assertThat(f.getValue("MAX_ENTRIES_PER_BLOCK")).isEqualTo("32");
    io.bellows.schema.ColumnFamilyDescriptor bellows = Convert.descriptor(admin.getDescriptor(n)).family("f");
    assertThat(bellows.get(io.bellows.config.Knobs.MIN_BLOCKSIZE)).isEqualTo(2048);
    assertThat(bellows.get(io.bellows.config.Knobs.MAX_ENTRIES_PER_BLOCK)).isEqualTo(32);
    assertThat(admin.getDescriptor(T).getColumnFamily(G).getValue("MAX_ENTRIES_PER_BLOCK")).as("unset stays unset")
        .isNull();

    // A family made without HBase has dynamic blocks by default; its descriptor, read through HBase's
    // API and sent back, keeps them (HBase's BLOCKSIZE alone would mean static blocks).
    io.bellows.schema.TableDescriptor nativeTable = io.bellows.schema.TableDescriptor.builder("native")
        .family(io.bellows.schema.ColumnFamilyDescriptor.of("f")).build();
    var viaHBase = Convert.descriptor(nativeTable);
    assertThat(viaHBase.getColumnFamily(F).getValue("MAX_ENTRIES_PER_BLOCK")).isEqualTo("32");
    assertThat(Convert.descriptor(viaHBase).family("f").maxEntriesPerBlock()).isEqualTo(32);

    assertThatThrownBy(() -> Convert.descriptor(TableDescriptorBuilder.newBuilder(n).setColumnFamily(
        ColumnFamilyDescriptorBuilder.newBuilder(F).setBlocksize(16 * 1024).setValue("MIN_BLOCKSIZE", "64K")
            .setValue("MAX_ENTRIES_PER_BLOCK", "8").build()).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("MIN_BLOCKSIZE (65536) exceeds BLOCKSIZE (16384) in family f");
  }

  @Test
  void aConnectionNeedsADirectoryOrAServer() {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.client.connection.impl", BellowsConnection.class.getName());
    assertThatThrownBy(() -> ConnectionFactory.createConnection(conf)).hasStackTraceContaining("bellows.data.dir");
  }
}
