package io.bellows.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.config.EngineOptions;
import io.bellows.engine.LocalEngine;
import io.bellows.server.BellowsServer;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HColumnDescriptor;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.HTableDescriptor;
import org.apache.hadoop.hbase.MemoryCompactionPolicy;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotDisabledException;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CompactType;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Hbck;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.RegionReplicaUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HBase's own shell (2.5 and 2.6, {@code hbase shell}) on Bellows: each test makes the Admin,
 * Connection and Table calls one shell command makes, in the shell's order and with its argument
 * shapes (its deprecated {@code HTableDescriptor}/{@code HColumnDescriptor}, null families and
 * split points, region-name-first fallbacks), read from hbase-shell's Ruby sources (hbase/admin.rb,
 * hbase/table.rb, shell/commands/*.rb). The table of methods is in README "Coming from HBase".
 * Runs against whichever HBase client the build has (2.6 by default, 2.5 with {@code -Phbase-2.5}).
 */
@SuppressWarnings("deprecation") // the shell builds tables with HTableDescriptor and HColumnDescriptor
class HBaseShellCallsTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  @TempDir Path dir;
  private Connection conn;
  private Admin admin;
  private Hbck hbck;

  /** What the shell does when it starts: a connection, then its Admin wrapper (Hbase::Admin.new). */
  @BeforeEach
  void startTheShell() throws IOException {
    HadoopLogin.assumeWorks();
    conn = ConnectionFactory.createConnection(HBaseClientTest.conf(dir));
    startAdmin();
  }

  private void startAdmin() throws IOException {
    admin = conn.getAdmin();
    hbck = conn.getHbck();
    assertThat(conn.getConfiguration().get("bellows.data.dir", conn.getConfiguration().get("bellows.server"))).isNotNull();
  }

  @AfterEach
  void exitTheShell() throws IOException {
    if (conn != null) {
      admin.close();
      hbck.close();
      conn.close();
    }
  }

  // ------------------------------------------------------------------ the shell's steps

  /** {@code create 'name', 'f', ...} (admin.rb create) and the table object the command returns. */
  private Table create(String name, HColumnDescriptor... families) throws IOException {
    return create(name, null, families);
  }

  private Table create(String name, byte[][] splits, HColumnDescriptor... families) throws IOException {
    HTableDescriptor htd = new HTableDescriptor(TableName.valueOf(name));
    for (HColumnDescriptor f : families) {
      htd.addFamily(f);
    }
    if (splits == null) {
      admin.createTable(htd);
    } else {
      admin.createTable(htd, splits);
    }
    return table(name);
  }

  /** Hbase::Table.new: the table, its name and the shell's timestamp setting. */
  private Table table(String name) throws IOException {
    Table t = conn.getTable(TableName.valueOf(name));
    assertThat(t.getName().getNameAsString()).isEqualTo(name);
    t.getConfiguration().getBoolean("hbase.shell.timestamp.format.epoch", false);
    return t;
  }

  /** admin.rb tableExists: the check most commands make first. */
  private void tableExists(String name) throws IOException {
    assertThat(admin.tableExists(TableName.valueOf(name))).as("table %s exists", name).isTrue();
  }

  /** {@code disable 'name'} */
  private void disable(String name) throws IOException {
    tableExists(name);
    if (!admin.isTableDisabled(TableName.valueOf(name))) {
      admin.disableTable(TableName.valueOf(name));
    }
  }

  /** {@code enable 'name'} */
  private void enable(String name) throws IOException {
    tableExists(name);
    if (!admin.isTableEnabled(TableName.valueOf(name))) {
      admin.enableTable(TableName.valueOf(name));
    }
  }

  /** {@code truncate 'name'} or {@code truncate_preserve 'name'} */
  private void truncate(String name, boolean preserve) throws IOException {
    if (admin.isTableEnabled(TableName.valueOf(name))) {
      disable(name);
    }
    admin.truncateTable(TableName.valueOf(name), preserve);
  }

  /** {@code describe 'name'}: what it prints, families one per line. */
  private String describe(String name) throws IOException {
    tableExists(name);
    HColumnDescriptor[] families = admin.getTableDescriptor(TableName.valueOf(name)).getColumnFamilies();
    StringBuilder out = new StringBuilder("Table " + name + " is "
        + (admin.isTableEnabled(TableName.valueOf(name)) ? "ENABLED" : "DISABLED") + "\n");
    tableExists(name);
    out.append(name).append(admin.getTableDescriptor(TableName.valueOf(name)).toStringTableAttributes()).append('\n');
    for (HColumnDescriptor f : families) {
      out.append(f).append('\n');
    }
    out.append(admin.tableExists(TableName.valueOf("hbase:quota")) ? "QUOTAS" : "Quota is disabled");
    return out.toString();
  }

  /** {@code scan 'name'} with no options: "row column=f:q, timestamp=..., value=v" lines. */
  private static List<String> scan(Table t) throws IOException {
    Scan scan = new Scan(new byte[0]);
    scan.setCacheBlocks(true);
    scan.setReversed(false);
    scan.setRaw(false);
    List<String> out = new ArrayList<>();
    try (ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        assertThat(r.isStale()).isFalse();
        r.listCells().forEach(c -> out.add(Bytes.toStringBinary(r.getRow()) + " " + Bytes.toStringBinary(c.getQualifierArray(),
            c.getQualifierOffset(), c.getQualifierLength()) + "=" + Bytes.toStringBinary(c.getValueArray(), c.getValueOffset(),
            c.getValueLength())));
      }
    }
    return out;
  }

  /** {@code count 'name'} (table.rb _count_internal). */
  private static int count(Table t) throws IOException {
    Scan scan = new Scan();
    scan.setCacheBlocks(false);
    scan.setCaching(10);
    scan.setFilter(new FirstKeyOnlyFilter());
    int n = 0;
    try (ResultScanner s = t.getScanner(scan)) {
      for (Result ignored : s) {
        n++;
      }
    }
    return n;
  }

  private static void put(Table t, String row, String value) throws IOException {
    t.put(new Put(Bytes.toBytes(row)).addColumn(F, Q, Bytes.toBytes(value)));
  }

  private static String get(Table t, String row) throws IOException {
    Get get = new Get(Bytes.toBytes(row));
    get.addColumn(F, Q);
    get.setMaxVersions(1);
    Result r = t.get(get);
    return r.isEmpty() ? null : Bytes.toString(r.getValue(F, Q));
  }

  private static List<String> regionStarts(Admin admin, String name) throws IOException {
    List<String> out = new ArrayList<>();
    admin.getRegions(TableName.valueOf(name)).forEach(r -> out.add(Bytes.toStringBinary(r.getStartKey())));
    return out;
  }

  // ------------------------------------------------------------------ the commands

  @Test
  void theShellsAdminWrapperGetsAnHbckWhoseRepairsAreUnsupported() throws IOException {
    assertThat(hbck).isNotNull();
    assertThat(hbck.isAborted()).isFalse();
    assertThatThrownBy(hbck::runHbckChore).isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("Hbck.runHbckChore is not supported by Bellows"); // the hbck_chore_run command
    assertThatThrownBy(hbck::fixMeta).isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("Hbck.fixMeta");
    try (Hbck other = conn.getHbck(ServerName.valueOf("localhost", 16000, 1))) {
      assertThatThrownBy(() -> other.assigns(List.of("r"))).isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("Hbck.assigns");
    }
  }

  @Test
  void createListExistsAndTheDataCommands() throws IOException {
    Table t = create("t1", new HColumnDescriptor("f"));
    assertThat(admin.listTableNames(Pattern.compile(".*"))).extracting(TableName::getNameAsString).containsExactly("t1");
    assertThat(admin.listTableNames(Pattern.compile("x.*"))).isEmpty();
    assertThat(admin.tableExists(TableName.valueOf("t1"))).isTrue(); // exists 't1'
    assertThat(admin.tableExists(TableName.valueOf("t2"))).isFalse();

    put(t, "r1", "v1"); // put 't1', 'r1', 'f:q', 'v1'
    put(t, "r2", "v2");
    t.put(new Put(Bytes.toBytes("r3")).addColumn(F, Q, 42L, Bytes.toBytes("old"))); // with a timestamp
    assertThat(get(t, "r1")).isEqualTo("v1");
    assertThat(scan(t)).containsExactly("r1 q=v1", "r2 q=v2", "r3 q=old");
    assertThat(count(t)).isEqualTo(3);

    // incr, get_counter, append (table.rb): the new value comes back in the Result
    Result inc = t.increment(new Increment(Bytes.toBytes("c")).addColumn(F, Q, 5));
    assertThat(Bytes.toLong(CellValue.of(inc))).isEqualTo(5);
    assertThat(Bytes.toLong(t.get(new Get(Bytes.toBytes("c")).addColumn(F, Q).setMaxVersions(1)).getValue(F, Q)))
        .isEqualTo(5);
    Result app = t.append(new Append(Bytes.toBytes("r1")).addColumn(F, Q, Bytes.toBytes("+")));
    assertThat(Bytes.toString(CellValue.of(app))).isEqualTo("v1+");

    // delete 't1', 'r2', 'f:q' (the latest version) and deleteall 't1', 'r3'
    t.delete(new Delete(Bytes.toBytes("r2"), HConstants.LATEST_TIMESTAMP).addColumn(F, Q, HConstants.LATEST_TIMESTAMP));
    t.delete(new Delete(Bytes.toBytes("r3"), HConstants.LATEST_TIMESTAMP));
    assertThat(get(t, "r2")).isNull();
    assertThat(get(t, "r3")).isNull();
    assertThat(count(t)).isEqualTo(2);
    t.close();
  }

  @Test
  void describeShowsADefaultFamilyAsHBaseDoesAndSaysQuotasAreDisabled() throws IOException {
    create("plain", new HColumnDescriptor("f"));
    String out = describe("plain");
    System.out.println(out);
    assertThat(out).startsWith("Table plain is ENABLED\nplain\n").endsWith("Quota is disabled")
        .doesNotContain("METADATA").doesNotContain("IN_MEMORY_COMPACTION");
    HColumnDescriptor f = admin.getTableDescriptor(TableName.valueOf("plain")).getFamily(F);
    assertThat(f.toString()).as("what HBase shows for a family created with no settings")
        .isEqualTo(new HColumnDescriptor("f").toString());
    assertThat(f.getValue("IN_MEMORY_COMPACTION")).as("unset stays unset").isNull();
    assertThat(f.getMaxVersions()).isEqualTo(1);
    assertThat(f.getCompressionType()).isEqualTo(Compression.Algorithm.NONE);

    HColumnDescriptor eager = new HColumnDescriptor("f");
    eager.setInMemoryCompaction(MemoryCompactionPolicy.EAGER);
    eager.setMaxVersions(3);
    create("tuned", eager);
    assertThat(describe("tuned")).contains("VERSIONS => '3'").contains("METADATA => {'IN_MEMORY_COMPACTION' => 'EAGER'}");
    assertThat(admin.tableExists(TableName.valueOf("hbase:meta"))).isFalse();
    assertThat(admin.tableExists(TableName.valueOf("ns1:t"))).isFalse();

    // the table object's families, which the shell lists when a command names an unknown one
    Table t = table("tuned");
    assertThatThrownBy(() -> t.put(new Put(Bytes.toBytes("r")).addColumn(Bytes.toBytes("nope"), Q, Bytes.toBytes("v"))))
        .isInstanceOf(NoSuchColumnFamilyException.class);
    assertThat(t.getTableDescriptor().getFamilies()).extracting(HColumnDescriptor::getNameAsString).containsExactly("f");
  }

  @Test
  void truncateEmptiesTheTableKeepingItsSettingsAndLeavesItEnabled() throws IOException {
    HColumnDescriptor f = new HColumnDescriptor("f");
    f.setMaxVersions(4);
    f.setTimeToLive(86400);
    f.setCompressionType(Compression.Algorithm.ZSTD);
    Table t = create("tr", new byte[][] {Bytes.toBytes("m")}, f);
    put(t, "a", "1");
    put(t, "z", "2");
    TableDescriptor before = admin.getDescriptor(TableName.valueOf("tr"));

    truncate("tr", false);
    assertThat(admin.isTableEnabled(TableName.valueOf("tr"))).isTrue();
    assertThat(count(table("tr"))).isZero();
    assertThat(admin.getDescriptor(TableName.valueOf("tr"))).isEqualTo(before);
    assertThat(regionStarts(admin, "tr")).containsExactly("");

    admin.split(TableName.valueOf("tr"), Bytes.toBytes("k"));
    put(table("tr"), "b", "3");
    truncate("tr", true); // truncate_preserve
    assertThat(regionStarts(admin, "tr")).containsExactly("", "k");
    assertThat(admin.isTableEnabled(TableName.valueOf("tr"))).isTrue();
    assertThat(count(table("tr"))).isZero();
    assertThat(admin.getDescriptor(TableName.valueOf("tr"))).isEqualTo(before);

    // as HBase: only a disabled table, and an existing one
    assertThatThrownBy(() -> admin.truncateTable(TableName.valueOf("tr"), false))
        .isInstanceOf(TableNotDisabledException.class);
    assertThatThrownBy(() -> admin.truncateTable(TableName.valueOf("missing"), false))
        .isInstanceOf(TableNotFoundException.class);
  }

  /** {@code clone_table_schema 'from', 'to'[, false]}: settings, and boundaries unless told not to. */
  @Test
  void cloneTableSchemaCopiesSettingsAndBoundaries() throws IOException {
    HColumnDescriptor f = new HColumnDescriptor("f");
    f.setMaxVersions(2);
    f.setBloomFilterType(org.apache.hadoop.hbase.regionserver.BloomType.ROWCOL);
    HTableDescriptor htd = new HTableDescriptor(TableName.valueOf("src"));
    htd.addFamily(f);
    htd.addFamily(new HColumnDescriptor("g"));
    htd.setDurability(org.apache.hadoop.hbase.client.Durability.ASYNC_WAL);
    htd.setMemStoreFlushSize(8L << 20);
    admin.createTable(htd, new byte[][] {Bytes.toBytes("m")});
    put(table("src"), "a", "1");

    admin.cloneTableSchema(TableName.valueOf("src"), TableName.valueOf("dst"), true);
    TableDescriptor src = admin.getDescriptor(TableName.valueOf("src"));
    TableDescriptor dst = admin.getDescriptor(TableName.valueOf("dst"));
    assertThat(dst.getTableName().getNameAsString()).isEqualTo("dst");
    assertThat(org.apache.hadoop.hbase.client.TableDescriptorBuilder.copy(TableName.valueOf("src"), dst))
        .isEqualTo(src);
    assertThat(regionStarts(admin, "dst")).containsExactly("", "m");
    assertThat(count(table("dst"))).isZero();
    assertThat(admin.isTableEnabled(TableName.valueOf("dst"))).isTrue();

    admin.cloneTableSchema(TableName.valueOf("src"), TableName.valueOf("dst2"), false);
    assertThat(regionStarts(admin, "dst2")).containsExactly("");
    assertThatThrownBy(() -> admin.cloneTableSchema(TableName.valueOf("src"), TableName.valueOf("dst"), false))
        .isInstanceOf(org.apache.hadoop.hbase.TableExistsException.class);
    assertThatThrownBy(() -> admin.cloneTableSchema(TableName.valueOf("missing"), TableName.valueOf("x"), false))
        .isInstanceOf(TableNotFoundException.class);
  }

  @Test
  void disableEnableIsDisabledAndDrop() throws IOException {
    create("d", new HColumnDescriptor("f"));
    disable("d");
    assertThat(admin.isTableDisabled(TableName.valueOf("d"))).isTrue(); // is_disabled
    disable("d"); // the shell checks first, so a second disable is quiet
    enable("d");
    assertThat(admin.isTableEnabled(TableName.valueOf("d"))).isTrue(); // is_enabled
    enable("d");
    disable("d");
    tableExists("d"); // drop
    assertThat(admin.isTableEnabled(TableName.valueOf("d"))).isFalse();
    admin.deleteTable(TableName.valueOf("d"));
    assertThat(admin.tableExists(TableName.valueOf("d"))).isFalse();
    assertThat(admin.listTableNames(Pattern.compile(".*"))).isEmpty();
  }

  /**
   * flush, compact, major_compact and split try the name as a region's first: Bellows refuses a
   * table's name there with HBase's IllegalArgumentException, so the shell goes on to the table.
   */
  @Test
  void flushCompactAndSplitFallFromRegionNamesToTheTable() throws IOException, InterruptedException {
    Table t = create("fc", new HColumnDescriptor("f"));
    for (int i = 0; i < 10; i++) {
      put(t, "r" + i, "v" + i);
    }
    byte[] name = Bytes.toBytes("fc");
    TableName fc = TableName.valueOf("fc");

    assertThatThrownBy(() -> admin.flushRegion(name)).isExactlyInstanceOf(RegionNames.NotARegionName.class)
        .isInstanceOf(IllegalArgumentException.class);
    admin.flush(fc);
    assertThatThrownBy(() -> admin.flushRegion(name, F)).isInstanceOf(IllegalArgumentException.class);
    admin.flush(fc, F);
    assertThatThrownBy(() -> admin.compactRegion(name, null)).isInstanceOf(IllegalArgumentException.class);
    admin.compact(fc, null, CompactType.NORMAL);
    admin.compact(fc, F, CompactType.NORMAL);
    assertThatThrownBy(() -> admin.majorCompactRegion(name, null)).isInstanceOf(IllegalArgumentException.class);
    admin.majorCompact(fc, null, CompactType.NORMAL);
    assertThatThrownBy(() -> admin.splitRegion(name, null)).isInstanceOf(IllegalArgumentException.class);
    admin.split(fc, Bytes.toBytes("r5"));
    assertThat(regionStarts(admin, "fc")).containsExactly("", "r5");
    assertThat(scan(t)).hasSize(10);

    // a real region's name: Bellows has no per-region operations
    byte[] region = admin.getRegions(fc).get(1).getRegionName();
    assertThatThrownBy(() -> admin.flushRegion(region)).isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("Admin.flushRegion is not supported by Bellows");
    assertThatThrownBy(() -> admin.compact(fc, null, CompactType.MOB)).isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("MOB");
    assertThatThrownBy(() -> admin.flush(fc, Bytes.toBytes("nope"))).isInstanceOf(NoSuchColumnFamilyException.class);
    assertThatThrownBy(() -> admin.compact(TableName.valueOf("missing"), null, CompactType.NORMAL))
        .isInstanceOf(TableNotFoundException.class);
  }

  /** {@code get_splits} (every region's start key but the first) and {@code locate_region}. */
  @Test
  void getSplitsAndLocateRegion() throws IOException {
    Table t = create("sp", new byte[][] {Bytes.toBytes("g"), Bytes.toBytes("p")}, new HColumnDescriptor("f"));
    List<String> splits = new ArrayList<>();
    try (RegionLocator locator = t.getRegionLocator()) {
      for (HRegionLocation l : locator.getAllRegionLocations()) {
        if (RegionReplicaUtil.isDefaultReplica(l.getRegion())) {
          splits.add(Bytes.toStringBinary(l.getRegionInfo().getStartKey()));
        }
      }
    }
    splits.removeIf(String::isEmpty);
    assertThat(splits).containsExactly("g", "p");

    try (RegionLocator locator = conn.getRegionLocator(TableName.valueOf("sp"))) {
      HRegionLocation l = locator.getRegionLocation(Bytes.toBytesBinary("h"));
      assertThat(Bytes.toString(l.getRegion().getStartKey())).isEqualTo("g");
      assertThat(Bytes.toString(l.getRegion().getEndKey())).isEqualTo("p");
      assertThat(l.getServerName().getHostname()).isEqualTo("localhost");
      assertThat(l.getRegion().getRegionNameAsString()).startsWith("sp,g,");
      assertThat(Bytes.toString(locator.getRegionLocation(new byte[0]).getRegion().getEndKey())).isEqualTo("g");
      assertThat(Bytes.toString(locator.getRegionLocation(Bytes.toBytes("p")).getRegion().getStartKey())).isEqualTo("p");
      assertThat(locator.getStartKeys().length).isEqualTo(3);
      assertThat(locator.getEndKeys()[2]).isEmpty();
    }
    try (RegionLocator missing = conn.getRegionLocator(TableName.valueOf("missing"))) {
      assertThatThrownBy(missing::getAllRegionLocations).isInstanceOf(TableNotFoundException.class);
    }
  }

  /** The shell turns TableNotFoundException into "Unknown table". */
  @Test
  void anUnknownTableIsHBasesTableNotFoundException() {
    assertThatThrownBy(() -> conn.getTable(TableName.valueOf("missing"))).isInstanceOf(TableNotFoundException.class);
    assertThatThrownBy(() -> admin.getTableDescriptor(TableName.valueOf("missing")))
        .isInstanceOf(TableNotFoundException.class);
  }

  /** Commands for what Bellows does not have fail with UnsupportedOperationException naming the method; balancer runs. */
  @Test
  void commandsForFeaturesBellowsLacksFailNamingTheMethod() throws IOException {
    create("u", new HColumnDescriptor("f"));
    assertThatThrownBy(() -> admin.listNamespaceDescriptors()).isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("Admin.listNamespaceDescriptors"); // list_namespace
    assertThatThrownBy(() -> admin.getClusterStatus()).isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("Admin.getClusterStatus"); // status
    assertThatThrownBy(() -> admin.getProcedures()).isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("Admin.getProcedures"); // list_procedures
    // balancer: a pass of a Bellows cluster's leaders; an embedded engine has nothing to balance, and it ran.
    assertThat(admin.balancer(false)).isTrue();
    assertThat(admin.balance()).isTrue();
  }

  /** The same admin commands through a Bellows server (bellows.server). */
  @Test
  void describeAndTruncateThroughAServer() throws Exception {
    exitTheShell(); // the embedded one
    conn = null;
    Path data = dir.resolve("served");
    try (LocalEngine engine = LocalEngine.open(data, EngineOptions.defaults());
        BellowsServer server = BellowsServer.start(engine, ServerConfig.defaults().withPorts(0, -1), ServerEvents.NONE)) {
      Configuration conf = HBaseClientTest.conf(dir);
      conf.unset("bellows.data.dir");
      conf.set("bellows.server", "127.0.0.1:" + server.port());
      try (Connection remote = ConnectionFactory.createConnection(conf)) {
        conn = remote;
        startAdmin();
        Table t = create("st", new byte[][] {Bytes.toBytes("m")}, new HColumnDescriptor("f"));
        put(t, "a", "1");
        assertThat(describe("st")).doesNotContain("METADATA").endsWith("Quota is disabled");
        truncate("st", true);
        assertThat(count(table("st"))).isZero();
        assertThat(regionStarts(admin, "st")).containsExactly("", "m");
        try (RegionLocator locator = table("st").getRegionLocator()) {
          HRegionLocation l = locator.getRegionLocation(Bytes.toBytes("x"));
          assertThat(l.getServerName().getPort()).isEqualTo(server.port());
          assertThat(Bytes.toString(l.getRegion().getStartKey())).isEqualTo("m");
        }
        assertThat(admin.isTableEnabled(TableName.valueOf("st"))).isTrue();
        assertThat(hbck.isAborted()).isFalse();
        admin.close();
        hbck.close();
        conn = null;
      }
      conf.set("bellows.server", "dns:///127.0.0.1:" + server.port()); // a gRPC target with a scheme
      try (Connection remote = ConnectionFactory.createConnection(conf);
          RegionLocator locator = remote.getRegionLocator(TableName.valueOf("st"))) {
        ServerName at = locator.getRegionLocation(Bytes.toBytes("a")).getServerName();
        assertThat(at.getHostname()).isEqualTo("127.0.0.1");
        assertThat(at.getPort()).isEqualTo(server.port());
      }
    }
  }

  /** The value of a one-cell Result, as table.rb reads it. */
  private static final class CellValue {
    static byte[] of(Result r) {
      var c = r.listCells().get(0);
      return Bytes.copy(c.getValueArray(), c.getValueOffset(), c.getValueLength());
    }
  }
}
