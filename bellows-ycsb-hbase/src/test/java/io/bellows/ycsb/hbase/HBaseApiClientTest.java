package io.bellows.ycsb.hbase;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.bellows.client.Bellows;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knob;
import io.bellows.config.Knobs;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.ycsb.BellowsClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.Vector;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;
import site.ycsb.measurements.Measurements;
import site.ycsb.measurements.exporter.MeasurementsExporter;
import site.ycsb.workloads.CoreWorkload;

/**
 * The HBase-API binding, in this JVM, on an embedded Bellows engine: every YCSB operation returns
 * OK and what it wrote is what Bellows' own API and HBase's API read back; YCSB's CoreWorkload with
 * data integrity finds no wrong value; the table it creates is the one Bellows' own binding
 * creates; and it names no Bellows class.
 */
class HBaseApiClientTest {
  private static final String FAMILY = "family";

  @TempDir Path dir;

  private Properties properties(Path data) {
    Properties p = new Properties();
    p.setProperty("hbase.client.connection.impl", "io.bellows.hbase.BellowsConnection");
    p.setProperty("bellows.data.dir", data.toString());
    return p;
  }

  private static HBaseApiClient client(Properties p) throws DBException {
    HBaseApiClient c = new HBaseApiClient();
    c.setProperties(p);
    c.init();
    return c;
  }

  private static Map<String, ByteIterator> fields(String... kv) {
    Map<String, ByteIterator> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], new StringByteIterator(kv[i + 1]));
    }
    return m;
  }

  private static Map<String, String> strings(Map<String, ByteIterator> m) {
    Map<String, String> out = new TreeMap<>();
    m.forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }

  @Test
  void everyOperationReturnsOkAndItsValuesReadBackThroughBellowsAndThroughHBase() throws Exception {
    HadoopLogin.assumeWorks();
    Path data = dir.resolve("db");
    HBaseApiClient db = client(properties(data));
    try {
      for (String key : List.of("user1", "user10", "user2", "user20", "user3")) {
        assertThat(db.insert("usertable", key, fields("field0", "a-" + key, "field1", "b-" + key))).isEqualTo(Status.OK);
      }
      Map<String, ByteIterator> read = new HashMap<>();
      assertThat(db.read("usertable", "user2", null, read)).isEqualTo(Status.OK);
      assertThat(strings(read)).containsExactly(Map.entry("field0", "a-user2"), Map.entry("field1", "b-user2"));

      assertThat(db.update("usertable", "user2", fields("field1", "new"))).isEqualTo(Status.OK);
      Map<String, ByteIterator> one = new HashMap<>();
      assertThat(db.read("usertable", "user2", Set.of("field1"), one)).isEqualTo(Status.OK);
      assertThat(strings(one)).as("only the field asked for, updated").containsExactly(Map.entry("field1", "new"));

      Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
      assertThat(db.scan("usertable", "user10", 3, null, rows)).isEqualTo(Status.OK);
      assertThat(rows).extracting(r -> r.get("field0").toString()).as("key order, three rows")
          .containsExactly("a-user10", "a-user2", "a-user20");

      assertThat(db.delete("usertable", "user3")).isEqualTo(Status.OK);
      assertThat(db.read("usertable", "user3", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);
    } finally {
      db.cleanup();
    }

    // Through HBase's API, on a connection of its own (the binding's is closed).
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.client.connection.impl", "io.bellows.hbase.BellowsConnection");
    conf.set("bellows.data.dir", data.toString());
    try (Connection c = ConnectionFactory.createConnection(conf);
        Table t = c.getTable(TableName.valueOf("usertable"))) {
      Result r = t.get(new Get(bytes("user2")));
      assertThat(string(r.getValue(bytes(FAMILY), bytes("field0")))).isEqualTo("a-user2");
      assertThat(string(r.getValue(bytes(FAMILY), bytes("field1")))).isEqualTo("new");
      assertThat(t.exists(new Get(bytes("user3")))).isFalse();
    }

    // Through Bellows' own API: the engine was released by the last connection, so it opens here.
    try (Bellows b = Bellows.open(data, EngineOptions.defaults())) {
      io.bellows.client.Table t = b.getTable("usertable");
      io.bellows.client.Result r = t.get(new io.bellows.client.Get(bytes("user20")));
      assertThat(string(r.getValue(bytes(FAMILY), bytes("field0")))).isEqualTo("a-user20");
      assertThat(string(r.getValue(bytes(FAMILY), bytes("field1")))).isEqualTo("b-user20");
      assertThat(string(t.get(new io.bellows.client.Get(bytes("user2"))).getValue(bytes(FAMILY), bytes("field1"))))
          .isEqualTo("new");
      assertThat(t.get(new io.bellows.client.Get(bytes("user3"))).isEmpty()).isTrue();
    }
  }

  @Test
  void coreWorkloadOnTwoClientsSharingTheConnectionFindsNoWrongValue() throws Exception {
    HadoopLogin.assumeWorks();
    Properties p = properties(dir.resolve("db"));
    p.setProperty("recordcount", "300");
    p.setProperty("operationcount", "600");
    p.setProperty("fieldcount", "4");
    p.setProperty("fieldlength", "25");
    p.setProperty("fieldlengthdistribution", "constant");
    p.setProperty("dataintegrity", "true");
    p.setProperty("readallfields", "true");
    p.setProperty("readproportion", "0.3");
    p.setProperty("updateproportion", "0.2");
    p.setProperty("scanproportion", "0.2");
    p.setProperty("insertproportion", "0.1");
    p.setProperty("readmodifywriteproportion", "0.2");
    p.setProperty("requestdistribution", "zipfian");
    p.setProperty("maxscanlength", "20");
    Measurements.setProperties(p);
    CoreWorkload w = new CoreWorkload();
    w.init(p);
    Map<String, Integer> statuses = new TreeMap<>();
    Counting first = new Counting(client(p), statuses);
    Counting second = new Counting(client(p), statuses);
    try {
      Object s0 = w.initThread(p, 0, 2);
      Object s1 = w.initThread(p, 1, 2);
      for (int i = 0; i < 150; i++) {
        assertThat(w.doInsert(first, s0)).as("insert %d", i).isTrue();
        assertThat(w.doInsert(second, s1)).as("insert %d", i).isTrue();
      }
      for (int i = 0; i < 300; i++) {
        assertThat(w.doTransaction(first, s0)).as("operation %d", i).isTrue();
        assertThat(w.doTransaction(second, s1)).as("operation %d", i).isTrue();
      }
      first.cleanup();
      first = null;
      for (int i = 0; i < 50; i++) {
        assertThat(w.doTransaction(second, s1)).as("after the other client's cleanup, operation %d", i).isTrue();
      }
    } finally {
      if (first != null) {
        first.cleanup();
      }
      second.cleanup();
      w.cleanup();
    }
    List<String> measured = new ArrayList<>();
    Measurements.getMeasurements().exportMeasurements(new MeasurementsExporter() {
      @Override
      public void write(String metric, String measurement, int i) {
        measured.add(metric + " " + measurement + " " + i);
      }

      @Override
      public void write(String metric, String measurement, long i) {
        measured.add(metric + " " + measurement + " " + i);
      }

      @Override
      public void write(String metric, String measurement, double d) {
        measured.add(metric + " " + measurement + " " + d);
      }

      @Override
      public void close() {}
    });
    assertThat(measured).anyMatch(s -> s.startsWith("VERIFY Return=OK"))
        .noneMatch(s -> s.startsWith("VERIFY Return=") && !s.startsWith("VERIFY Return=OK"));
    assertThat(statuses.keySet()).as("every operation kind ran; NOT_FOUND is a record not inserted yet")
        .contains("insert OK", "read OK", "update OK", "scan OK").allMatch(k -> k.endsWith(" OK") || k.endsWith(" NOT_FOUND"));
    // The last cleanup closed the connection and released the engine: Bellows opens the directory.
    try (Bellows b = Bellows.open(dir.resolve("db"), EngineOptions.defaults());
        io.bellows.client.ResultScanner rows = b.getTable("usertable").getScanner(new io.bellows.client.Scan())) {
      int n = 0;
      for (io.bellows.client.Result r : rows) {
        n++;
        assertThat(r.cells()).as("a record's four fields, in family '%s'", FAMILY).hasSize(4)
            .allMatch(c -> string(c.family()).equals(FAMILY));
      }
      assertThat(n).as("the loaded records and the inserted ones").isGreaterThanOrEqualTo(300);
    }
  }

  @Test
  void createsTheSameTableAsBellowsOwnBinding() throws Exception {
    HadoopLogin.assumeWorks();
    Path viaHBase = dir.resolve("hbase");
    Path viaNative = dir.resolve("native");
    for (Binding b : Binding.values()) {
      Properties p = new Properties();
      for (String kv : b.properties(b == Binding.NATIVE ? viaNative : viaHBase, FAMILY)) {
        p.setProperty(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
      }
      DB db = b == Binding.NATIVE ? new BellowsClient() : new HBaseApiClient();
      db.setProperties(p);
      db.init();
      try {
        assertThat(db.insert("usertable", "user1", fields("field0", "x"))).isEqualTo(Status.OK);
      } finally {
        db.cleanup();
      }
    }
    try (Bellows h = Bellows.open(viaHBase, EngineOptions.defaults());
        Bellows n = Bellows.open(viaNative, EngineOptions.defaults())) {
      assertThat(layout(h)).isEqualTo(layout(n)).containsEntry("DURABILITY", "ASYNC_WAL");
      assertThat(h.regions("usertable")).as("no pre-split").hasSize(1);
      assertThat(n.regions("usertable")).as("no pre-split").hasSize(1);
    }
  }

  /** Every table and family knob of {@code usertable} as it reads (set or default), and the regions. */
  private static Map<String, String> layout(Bellows b) {
    TableDescriptor t = b.describeTable("usertable");
    Map<String, String> out = new LinkedHashMap<>();
    for (Knob<?> k : Knobs.ALL) {
      if (k.scope() == Knob.Scope.TABLE) {
        out.put(k.name(), String.valueOf(t.get(k)));
      }
    }
    for (ColumnFamilyDescriptor f : t.families()) {
      for (Knob<?> k : Knobs.ALL) {
        if (k.scope() == Knob.Scope.FAMILY) {
          out.put(f.name() + ":" + k.name(), String.valueOf(f.get(k)));
        }
      }
    }
    return out;
  }

  @Test
  void theBindingNamesNoBellowsClass() {
    JavaClasses imported = new ClassFileImporter().importClasses(HBaseApiClient.class);
    classes().that().belongToAnyOf(HBaseApiClient.class)
        .should().onlyDependOnClassesThat(describe("of the JDK, YCSB or HBase's client (or itself)",
            (JavaClass c) -> c.getName().startsWith(HBaseApiClient.class.getName())
                || c.isPrimitive() || c.isArray() && c.getBaseComponentType().isPrimitive()
                || List.of("java.", "javax.", "site.ycsb.", "org.apache.hadoop.").stream().anyMatch(c.getName()::startsWith)))
        .check(imported);
  }

  private static byte[] bytes(String s) {
    return Bytes.of(s);
  }

  private static String string(byte[] b) {
    return b == null ? null : new String(b, StandardCharsets.UTF_8);
  }

  /** Counts each operation's statuses, as YCSB's DBWrapper measures them. */
  private static final class Counting extends DB {
    private final DB db;
    private final Map<String, Integer> statuses;

    Counting(DB db, Map<String, Integer> statuses) {
      this.db = db;
      this.statuses = statuses;
    }

    private Status count(String op, Status s) {
      statuses.merge(op + " " + s.getName(), 1, Integer::sum);
      return s;
    }

    @Override
    public void cleanup() throws DBException {
      db.cleanup();
    }

    @Override
    public Status read(String t, String k, Set<String> f, Map<String, ByteIterator> r) {
      return count("read", db.read(t, k, f, r));
    }

    @Override
    public Status scan(String t, String k, int n, Set<String> f, Vector<HashMap<String, ByteIterator>> r) {
      return count("scan", db.scan(t, k, n, f, r));
    }

    @Override
    public Status update(String t, String k, Map<String, ByteIterator> v) {
      return count("update", db.update(t, k, v));
    }

    @Override
    public Status insert(String t, String k, Map<String, ByteIterator> v) {
      return count("insert", db.insert(t, k, v));
    }

    @Override
    public Status delete(String t, String k) {
      return count("delete", db.delete(t, k));
    }
  }
}
