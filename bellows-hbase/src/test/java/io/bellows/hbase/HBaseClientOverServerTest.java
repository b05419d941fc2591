package io.bellows.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.config.EngineOptions;
import io.bellows.engine.LocalEngine;
import io.bellows.server.BellowsServer;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.TableName;
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
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same HBase client code against a Bellows server ({@code bellows.server}, loopback): the
 * conditions, atomic increments and exception translation go over the wire too.
 */
class HBaseClientOverServerTest {
  @org.junit.jupiter.api.BeforeEach
  void hbaseClientRunsHere() {
    HadoopLogin.assumeWorks();
  }

  @TempDir Path dir;

  @Test
  void tablesWritesAndFilteredReversedScansThroughAServer() throws Exception {
    try (LocalEngine engine = LocalEngine.open(dir, EngineOptions.defaults());
        BellowsServer server = BellowsServer.start(engine, ServerConfig.defaults().withPorts(0, -1), ServerEvents.NONE)) {
      Configuration conf = HBaseConfiguration.create();
      conf.set("hbase.client.connection.impl", BellowsConnection.class.getName());
      conf.set("bellows.server", "127.0.0.1:" + server.port());
      try (Connection conn = ConnectionFactory.createConnection(conf)) {
        TableName tn = TableName.valueOf("t");
        byte[] f = Bytes.toBytes("f");
        conn.getAdmin().createTable(TableDescriptorBuilder.newBuilder(tn)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(f)).build(), new byte[][] {Bytes.toBytes("m")});
        Table t = conn.getTable(tn);
        for (String r : new String[] {"a1", "a2", "b", "x"}) {
          t.put(new Put(Bytes.toBytes(r)).addColumn(f, Bytes.toBytes("q"), Bytes.toBytes(r)));
        }
        List<String> rows = new ArrayList<>();
        try (ResultScanner s = t.getScanner(new Scan().setReversed(true).setFilter(new PrefixFilter(Bytes.toBytes("a"))))) {
          for (Result r : s) {
            rows.add(Bytes.toString(r.getRow()));
          }
        }
        assertThat(rows).containsExactly("a2", "a1");
        assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("x"))).getValue(f, Bytes.toBytes("q")))).isEqualTo("x");
        assertThat(engine.regions("t")).hasSize(2);
      }
    }
  }

  @Test
  void conditionsIncrementsAndExceptionsThroughAServer() throws Exception {
    try (LocalEngine engine = LocalEngine.open(dir, EngineOptions.defaults());
        BellowsServer server = BellowsServer.start(engine, ServerConfig.defaults().withPorts(0, -1), ServerEvents.NONE)) {
      Configuration conf = HBaseConfiguration.create();
      conf.set("hbase.client.connection.impl", BellowsConnection.class.getName());
      conf.set("bellows.server", "127.0.0.1:" + server.port());
      try (Connection conn = ConnectionFactory.createConnection(conf)) {
        TableName tn = TableName.valueOf("t");
        byte[] f = Bytes.toBytes("f");
        byte[] q = Bytes.toBytes("q");
        byte[] row = Bytes.toBytes("r");
        conn.getAdmin().createTable(TableDescriptorBuilder.newBuilder(tn).setColumnFamily(ColumnFamilyDescriptorBuilder.of(f)).build());
        Table t = conn.getTable(tn);
        t.put(new Put(row).addColumn(f, q, 10, Bytes.toBytes("m")));
        assertThat(t.checkAndMutate(row, f).qualifier(q).ifMatches(CompareOperator.LESS, Bytes.toBytes("a"))
            .thenPut(new Put(row).addColumn(f, Bytes.toBytes("x"), Bytes.toBytes("1")))).isTrue();
        assertThat(t.checkAndMutate(row, f).qualifier(q).timeRange(TimeRange.from(11)).ifNotExists()
            .thenPut(new Put(row).addColumn(f, Bytes.toBytes("y"), Bytes.toBytes("1")))).isTrue();
        assertThat(t.checkAndMutate(row, new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes("zzz"))))
            .thenDelete(new Delete(row))).isFalse();
        CheckAndMutateResult inc = t.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(f, q, Bytes.toBytes("m"))
            .build(new Increment(row).addColumn(f, Bytes.toBytes("a"), 2).addColumn(f, Bytes.toBytes("b"), 3)));
        assertThat(Bytes.toLong(inc.getResult().getValue(f, Bytes.toBytes("b")))).isEqualTo(3);
        assertThat(t.increment(new Increment(row).addColumn(f, Bytes.toBytes("a"), 1).setReturnResults(false)).isEmpty()).isTrue();
        assertThat(Bytes.toLong(t.get(new Get(row)).getValue(f, Bytes.toBytes("a")))).isEqualTo(3);
        assertThatThrownBy(() -> t.increment(new Increment(row).addColumn(f, q, 1))).isInstanceOf(DoNotRetryIOException.class)
            .hasMessageContaining("f:q");
        assertThatThrownBy(() -> t.put(new Put(row).addColumn(Bytes.toBytes("nosuchfamily"), q, Bytes.toBytes("v"))))
            .isInstanceOf(NoSuchColumnFamilyException.class);
        assertThatThrownBy(() -> conn.getTable(TableName.valueOf("nope"))).isInstanceOf(TableNotFoundException.class);
      }
    }
  }
}
