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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HColumnDescriptor;
import org.apache.hadoop.hbase.HTableDescriptor;
import org.apache.hadoop.hbase.InvalidFamilyOperationException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotDisabledException;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.SnapshotType;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.apache.hadoop.hbase.snapshot.SnapshotDoesNotExistException;
import org.apache.hadoop.hbase.snapshot.SnapshotExistsException;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Snapshots and alter through HBase's Admin, with the argument shapes HBase's shell and client code
 * use (snapshot, list_snapshots, delete_snapshot, clone_snapshot, restore_snapshot, alter), on an
 * embedded engine and through a Bellows server. Runs against whichever HBase client the build has.
 */
@SuppressWarnings("deprecation") // the shell's HTableDescriptor and HColumnDescriptor
class HBaseSnapshotsAndAlterTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final TableName T = TableName.valueOf("t");

  @TempDir Path dir;

  @BeforeEach
  void hbaseClientRunsHere() {
    HadoopLogin.assumeWorks();
    // the client these scenarios ran against: 2.6 by default, 2.5 with -Phbase-2.5
    assertThat(org.apache.hadoop.hbase.util.VersionInfo.getVersion())
        .startsWith(System.getProperty("bellows.hbase.expected", "2."));
  }

  interface Scenario {
    void run(Connection conn, Admin admin) throws Exception;
  }

  /** Runs {@code s} over an embedded engine, or through a server on loopback when {@code remote}. */
  private void run(boolean remote, Scenario s) throws Exception {
    Configuration conf = HBaseClientTest.conf(dir.resolve("embedded"));
    if (!remote) {
      try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
        s.run(conn, admin);
      }
      return;
    }
    try (LocalEngine engine = LocalEngine.open(dir.resolve("served"), EngineOptions.defaults());
        BellowsServer server = BellowsServer.start(engine, ServerConfig.defaults().withPorts(0, -1), ServerEvents.NONE)) {
      conf.unset("bellows.data.dir");
      conf.set("bellows.server", "127.0.0.1:" + server.port());
      try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
        s.run(conn, admin);
      }
    }
  }

  private static void put(Connection conn, TableName t, String row, String value) throws IOException {
    try (Table table = conn.getTable(t)) {
      table.put(new Put(Bytes.toBytes(row)).addColumn(F, Q, Bytes.toBytes(value)));
    }
  }

  private static String get(Connection conn, TableName t, String row) throws IOException {
    try (Table table = conn.getTable(t)) {
      byte[] v = table.get(new Get(Bytes.toBytes(row))).getValue(F, Q);
      return v == null ? null : Bytes.toString(v);
    }
  }

  private static void createT(Admin admin) throws IOException {
    admin.createTable(TableDescriptorBuilder.newBuilder(T).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
  }

  @ParameterizedTest(name = "remote={0}")
  @ValueSource(booleans = {false, true})
  void theShellsSnapshotCommands(boolean remote) throws Exception {
    run(remote, (conn, admin) -> {
      createT(admin);
      put(conn, T, "r1", "v1");
      // snapshot 't', 's1'  and  snapshot 't', 's2', {SKIP_FLUSH => true}
      admin.snapshot("s1", T);
      put(conn, T, "r2", "v2");
      Map<String, Object> unset = new HashMap<>(); // what the shell passes when TTL, MAX_FILESIZE are not given
      unset.put("TTL", -1L);
      unset.put("MAX_FILESIZE", -1L);
      admin.snapshot("s2", T, SnapshotType.SKIPFLUSH, unset);

      // list_snapshots, list_table_snapshots
      List<SnapshotDescription> all = admin.listSnapshots(Pattern.compile(".*"));
      assertThat(all).extracting(SnapshotDescription::getName).containsExactly("s1", "s2");
      assertThat(all).extracting(SnapshotDescription::getTableNameAsString).containsExactly("t", "t");
      assertThat(all.get(0).getCreationTime()).isPositive();
      assertThat(admin.listSnapshots()).hasSize(2);
      assertThat(admin.listSnapshots(Pattern.compile("s2"))).extracting(SnapshotDescription::getName).containsExactly("s2");
      assertThat(admin.listTableSnapshots(Pattern.compile("t"), Pattern.compile("s.*"))).hasSize(2);
      assertThat(admin.listTableSnapshots(Pattern.compile("other"), Pattern.compile(".*"))).isEmpty();

      // clone_snapshot 's2', 'c2': the skipped flush left r2 out
      admin.cloneSnapshot("s2", TableName.valueOf("c2"), false);
      assertThat(get(conn, TableName.valueOf("c2"), "r1")).isEqualTo("v1");
      assertThat(get(conn, TableName.valueOf("c2"), "r2")).isNull();

      // restore_snapshot 's1': disable, restore, enable; hbase-default.xml asks for a fail-safe
      // snapshot, which is taken, then deleted once the restore succeeded
      assertThat(conn.getConfiguration().getBoolean("hbase.snapshot.restore.take.failsafe.snapshot", false)).isTrue();
      put(conn, T, "r3", "v3");
      admin.disableTable(T);
      admin.restoreSnapshot("s1");
      admin.enableTable(T);
      assertThat(get(conn, T, "r1")).isEqualTo("v1");
      assertThat(get(conn, T, "r2")).isNull();
      assertThat(get(conn, T, "r3")).isNull();
      assertThat(admin.listSnapshots()).extracting(SnapshotDescription::getName).containsExactly("s1", "s2");
      // and without one, as the shell's restore_snapshot passes it
      put(conn, T, "r4", "v4");
      admin.disableTable(T);
      admin.restoreSnapshot("s1", false, false);
      admin.enableTable(T);
      assertThat(get(conn, T, "r4")).isNull();

      // delete_snapshot 's2', delete_all_snapshot
      admin.deleteSnapshot("s2");
      assertThat(admin.listSnapshots()).extracting(SnapshotDescription::getName).containsExactly("s1");
      admin.snapshot(new SnapshotDescription("s3", T, SnapshotType.FLUSH));
      admin.deleteSnapshots(Pattern.compile("s.*"));
      assertThat(admin.listSnapshots()).isEmpty();
    });
  }

  @ParameterizedTest(name = "remote={0}")
  @ValueSource(booleans = {false, true})
  void snapshotErrorsAreHBases(boolean remote) throws Exception {
    run(remote, (conn, admin) -> {
      createT(admin);
      admin.snapshot("s", T);
      assertThatThrownBy(() -> admin.snapshot("s", T)).isInstanceOf(SnapshotExistsException.class);
      assertThatThrownBy(() -> admin.snapshot("s9", TableName.valueOf("nope"))).isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> admin.deleteSnapshot("missing")).isInstanceOf(SnapshotDoesNotExistException.class);
      assertThatThrownBy(() -> admin.cloneSnapshot("missing", TableName.valueOf("c")))
          .isInstanceOf(SnapshotDoesNotExistException.class);
      assertThatThrownBy(() -> admin.cloneSnapshot("s", T)).isInstanceOf(TableExistsException.class);
      assertThatThrownBy(() -> admin.restoreSnapshot("missing")).isInstanceOf(SnapshotDoesNotExistException.class);
      assertThatThrownBy(() -> admin.restoreSnapshot("s")).isInstanceOf(TableNotDisabledException.class);
      admin.disableTable(T);
      Map<String, Object> ttl = new HashMap<>();
      ttl.put("TTL", 3600L);
      assertThatThrownBy(() -> admin.snapshot("s5", T, ttl)).isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("TTL");
      assertThatThrownBy(() -> admin.cloneSnapshot("s", TableName.valueOf("c"), false, "FILE"))
          .isInstanceOf(UnsupportedOperationException.class);
      // Nothing of the refused calls happened.
      assertThat(admin.listSnapshots()).extracting(SnapshotDescription::getName).containsExactly("s");
      assertThat(admin.tableExists(TableName.valueOf("c"))).isFalse();
      assertThat(admin.isTableDisabled(T)).isTrue();
      // A dropped table comes back from its snapshot.
      admin.deleteTable(T);
      admin.restoreSnapshot("s");
      assertThat(admin.tableExists(T)).isTrue();
    });
  }

  @ParameterizedTest(name = "remote={0}")
  @ValueSource(booleans = {false, true})
  void theShellsAlter(boolean remote) throws Exception {
    run(remote, (conn, admin) -> {
      createT(admin);
      put(conn, T, "r", "v");
      // alter 't', 'g': the descriptor is read, a family added, the whole descriptor sent
      HTableDescriptor htd = new HTableDescriptor(admin.getTableDescriptor(T));
      htd.addFamily(new HColumnDescriptor("g"));
      admin.modifyTable(T, htd);
      assertThat(admin.getDescriptor(T).hasColumnFamily(Bytes.toBytes("g"))).isTrue();
      // then, unless alter_async, it polls the table's region states until none is in transition
      var states = admin.getClusterMetrics().getTableRegionStatesCount().get(T);
      assertThat(states.getTotalRegions()).isEqualTo(1);
      assertThat(states.getRegionsInTransition()).isZero();
      assertThat(states.getClosedRegions()).isZero();
      // alter 't', NAME => 'f', VERSIONS => 5
      admin.modifyColumnFamily(T, ColumnFamilyDescriptorBuilder.newBuilder(F).setMaxVersions(5).build());
      assertThat(admin.getDescriptor(T).getColumnFamily(F).getMaxVersions()).isEqualTo(5);
      admin.modifyTableAsync(TableDescriptorBuilder.newBuilder(admin.getDescriptor(T))
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of("h")).build()).get();
      admin.addColumnFamily(T, ColumnFamilyDescriptorBuilder.of("k"));
      // alter 't', 'delete' => 'g'
      admin.deleteColumnFamily(T, Bytes.toBytes("g"));
      admin.deleteColumnFamilyAsync(T, Bytes.toBytes("h")).get();
      TableDescriptor d = admin.getDescriptor(T);
      assertThat(d.getColumnFamilyNames()).extracting(Bytes::toString).containsExactlyInAnyOrder("f", "k");
      assertThat(get(conn, T, "r")).isEqualTo("v");
      try (Table t = conn.getTable(T)) {
        t.put(new Put(Bytes.toBytes("r")).addColumn(Bytes.toBytes("k"), Q, Bytes.toBytes("w")));
        assertThat(t.get(new Get(Bytes.toBytes("r"))).getValue(Bytes.toBytes("k"), Q)).isEqualTo(Bytes.toBytes("w"));
        assertThatThrownBy(() -> t.put(new Put(Bytes.toBytes("r")).addColumn(Bytes.toBytes("g"), Q, Bytes.toBytes("x"))))
            .isInstanceOf(NoSuchColumnFamilyException.class);
      }

      assertThatThrownBy(() -> admin.addColumnFamily(T, ColumnFamilyDescriptorBuilder.of(F)))
          .isInstanceOf(InvalidFamilyOperationException.class);
      assertThatThrownBy(() -> admin.modifyColumnFamily(T, ColumnFamilyDescriptorBuilder.of("zz")))
          .isInstanceOf(InvalidFamilyOperationException.class);
      assertThatThrownBy(() -> admin.deleteColumnFamily(T, Bytes.toBytes("zz")))
          .isInstanceOf(InvalidFamilyOperationException.class);
      admin.deleteColumnFamily(T, Bytes.toBytes("k"));
      assertThatThrownBy(() -> admin.deleteColumnFamily(T, F)).isInstanceOf(InvalidFamilyOperationException.class);
      TableDescriptor ghost = TableDescriptorBuilder.newBuilder(TableName.valueOf("nope"))
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build();
      assertThatThrownBy(() -> admin.modifyTable(ghost)).isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> admin.modifyTable(T, ghost)).isInstanceOf(IOException.class);
      assertThat(admin.getDescriptor(T).getColumnFamilyNames()).extracting(Bytes::toString).containsExactly("f");
    });
  }
}
