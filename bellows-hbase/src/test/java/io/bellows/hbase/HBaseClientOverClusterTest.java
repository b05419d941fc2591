package io.bellows.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cluster.server.Members;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.config.EngineOptions;
import io.bellows.server.BellowsServer;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import io.bellows.testing.FreePorts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotDisabledException;
import org.apache.hadoop.hbase.TableNotEnabledException;
import org.apache.hadoop.hbase.UnknownRegionException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HBase client code against a Bellows cluster ({@code bellows.server} naming three members in this
 * JVM): a table created with split keys has a region per range, which the {@code RegionLocator}
 * lists (through the same {@code regions} call as the shell), and rows written across them read
 * back by gets and scans, forward and reversed; {@code Admin.split} splits a region online (the
 * locator then lists the daughters); HBase's {@code disableTable} then refuses reads,
 * and {@code deleteTable} (refused while the table is enabled) removes it from every member.
 */
class HBaseClientOverClusterTest {
  @BeforeAll
  static void hadoopLogin() {
    HadoopLogin.assumeWorks();
  }

  @TempDir Path dir;

  @Test
  void aPreSplitTableIsLocatedAndReadRegionByRegion() throws Exception {
    StringBuilder file = new StringBuilder();
    for (int i = 1; i <= 3; i++) {
      file.append("m").append(i).append(" 127.0.0.1:").append(FreePorts.next()).append(" 127.0.0.1:").append(FreePorts.next())
          .append('\n');
    }
    Members members = Members.parse(file.toString(), "the test's member file");
    List<ReplicatedEngine> engines = new ArrayList<>();
    List<BellowsServer> servers = new ArrayList<>();
    try {
      for (Members.Member m : members.list()) {
        ReplicatedEngine e = ReplicatedEngine.open(dir.resolve(m.id()), EngineOptions.defaults(), members, m.id());
        engines.add(e);
        servers.add(BellowsServer.start(e, ServerConfig.defaults().withPorts(m.clientPort(), -1), ServerEvents.NONE));
      }
      Configuration conf = HBaseConfiguration.create();
      conf.set("hbase.client.connection.impl", BellowsConnection.class.getName());
      conf.set("bellows.server", String.join(",", members.list().stream().map(Members.Member::clientAddress).toList()));
      try (Connection conn = ConnectionFactory.createConnection(conf)) {
        TableName tn = TableName.valueOf("t");
        byte[] f = Bytes.toBytes("f");
        byte[] q = Bytes.toBytes("q");
        conn.getAdmin().createTable(TableDescriptorBuilder.newBuilder(tn).setColumnFamily(ColumnFamilyDescriptorBuilder.of(f))
            .build(), new byte[][] {Bytes.toBytes("h"), Bytes.toBytes("q")});
        try (RegionLocator locator = conn.getRegionLocator(tn)) {
          List<String> ranges = new ArrayList<>();
          for (HRegionLocation l : locator.getAllRegionLocations()) {
            ranges.add(Bytes.toString(l.getRegion().getStartKey()) + "-" + Bytes.toString(l.getRegion().getEndKey()));
          }
          assertThat(ranges).containsExactly("-h", "h-q", "q-");
          assertThat(Bytes.toString(locator.getRegionLocation(Bytes.toBytes("m")).getRegion().getStartKey())).isEqualTo("h");
        }
        Table t = conn.getTable(tn);
        List<String> written = List.of("a1", "g9", "h0", "m5", "q", "z7");
        List<Put> puts = new ArrayList<>();
        for (String r : written) {
          puts.add(new Put(Bytes.toBytes(r)).addColumn(f, q, Bytes.toBytes("v" + r)));
        }
        t.put(puts); // one batch across the three regions
        assertThat(rows(t, new Scan())).isEqualTo(written);
        assertThat(rows(t, new Scan().setReversed(true))).containsExactly("z7", "q", "m5", "h0", "g9", "a1");
        for (String r : written) {
          assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes(r))).getValue(f, q))).isEqualTo("v" + r);
        }

        // HBase's balancer: a pass of the cluster's leaders, on meta's leader wherever it was asked.
        Admin admin = conn.getAdmin();
        assertThat(admin.balance()).isTrue();
        assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("m5"))).getValue(f, q))).isEqualTo("vm5");

        // HBase's move: the leadership of the region holding "m5" to a member named by its host and port,
        // then to one named by its id; the region's writes and reads go on through the new leader.
        RegionInfo middle = admin.getRegions(tn).get(1);
        ReplicatedEngine asker = engines.get(0);
        java.util.UUID group = asker.groups("t").get(1);
        String leader = asker.node().awaitLeader(group, 60_000);
        Members.Member to = members.list().stream().filter(m -> !m.id().equals(leader)).findFirst().orElseThrow();
        admin.move(middle.getEncodedNameAsBytes(), ServerName.valueOf("127.0.0.1", to.clientPort(), 1L));
        for (ReplicatedEngine e : engines) {
          awaitLeader(e, group, to.id());
        }
        t.put(new Put(Bytes.toBytes("m6")).addColumn(f, q, Bytes.toBytes("vm6")));
        assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("m6"))).getValue(f, q))).isEqualTo("vm6");
        String other = members.list().stream().map(Members.Member::id).filter(id -> !id.equals(to.id())).findFirst()
            .orElseThrow();
        admin.move(Bytes.toBytes(middle.getEncodedName()), Bytes.toBytes(other + ",0,0")); // the shell's form
        for (ReplicatedEngine e : engines) {
          awaitLeader(e, group, other);
        }
        assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("m5"))).getValue(f, q))).isEqualTo("vm5");
        assertThatThrownBy(() -> admin.move(Bytes.toBytes("0123456789abcdef0123456789abcdef"),
            ServerName.valueOf("127.0.0.1", to.clientPort(), 1L))).isInstanceOf(UnknownRegionException.class);
        assertThatThrownBy(() -> admin.move(middle.getEncodedNameAsBytes(), ServerName.valueOf("127.0.0.2", 1, 1L)))
            .isInstanceOf(DoNotRetryIOException.class).hasMessageContaining("no member of the Bellows cluster");

        // HBase's split over the cluster: [h, q) splits at k, online; the locator lists the daughters.
        admin.split(tn, Bytes.toBytes("k"));
        try (RegionLocator locator = conn.getRegionLocator(tn)) {
          List<String> ranges = new ArrayList<>();
          for (HRegionLocation l : locator.getAllRegionLocations()) {
            ranges.add(Bytes.toString(l.getRegion().getStartKey()) + "-" + Bytes.toString(l.getRegion().getEndKey()));
          }
          assertThat(ranges).containsExactly("-h", "h-k", "k-q", "q-");
        }
        t.put(new Put(Bytes.toBytes("j1")).addColumn(f, q, Bytes.toBytes("vj1")));
        assertThat(rows(t, new Scan())).containsExactly("a1", "g9", "h0", "j1", "m5", "m6", "q", "z7");

        // HBase's disable and delete over the cluster: reads refused while disabled, then the table gone.
        assertThatThrownBy(() -> admin.deleteTable(tn)).isInstanceOf(TableNotDisabledException.class);
        admin.disableTable(tn);
        assertThat(admin.isTableDisabled(tn)).isTrue();
        assertThatThrownBy(() -> t.get(new Get(Bytes.toBytes("m5")))).isInstanceOf(TableNotEnabledException.class);
        admin.deleteTable(tn);
        assertThat(admin.tableExists(tn)).isFalse();
        for (ReplicatedEngine e : engines) {
          assertThat(e.tableExists("t")).isFalse();
        }
      }
    } finally {
      for (BellowsServer s : servers) {
        s.close();
      }
      for (ReplicatedEngine e : engines) {
        e.close();
      }
    }
  }

  /** Waits until {@code e}'s replica of {@code group} knows {@code expected} as its leader. */
  private static void awaitLeader(ReplicatedEngine e, java.util.UUID group, String expected) throws Exception {
    String known = e.node().awaitLeader(group, 60_000);
    while (!known.equals(expected)) {
      known = e.node().awaitLeaderOtherThan(group, known, 60_000);
    }
  }

  private static List<String> rows(Table t, Scan scan) throws IOException {
    List<String> out = new ArrayList<>();
    try (ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        out.add(Bytes.toString(r.getRow()));
      }
    }
    return out;
  }

}
