package io.bellows.ycsb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.config.Durability;
import io.bellows.config.Knobs;
import io.bellows.config.MemStorePolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Properties;
import java.util.Vector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;
import site.ycsb.measurements.Measurements;
import site.ycsb.measurements.exporter.MeasurementsExporter;
import site.ycsb.workloads.CoreWorkload;

/**
 * The YCSB bindings of Bellows and RocksDB: YCSB's own CoreWorkload with data integrity on loads
 * records and runs every operation kind (reads, updates, scans, inserts, read-modify-writes)
 * through each binding, and every read is verified (no VERIFY error); the forked client runs a
 * core workload end to end.
 */
class YcsbBindingTest {
  @TempDir Path dir;

  private Properties properties(String binding, String mix) {
    Properties p = new Properties();
    p.setProperty("recordcount", "300");
    p.setProperty("operationcount", "600");
    p.setProperty("fieldcount", "4");
    p.setProperty("fieldlength", "25");
    p.setProperty("fieldlengthdistribution", "constant");
    p.setProperty("dataintegrity", "true");
    p.setProperty("readallfields", "true");
    for (String kv : mix.split(",")) {
      String[] f = kv.split("=");
      p.setProperty(f[0], f[1]);
    }
    p.setProperty("bellows.dir", dir.resolve("bellows").toString());
    p.setProperty("rocksdb.dir", dir.resolve("rocksdb").toString());
    return p;
  }

  @ParameterizedTest
  @ValueSource(strings = {"bellows", "rocksdb"})
  void coreWorkloadWithDataIntegrityFindsNoVerifyErrors(String binding) throws Exception {
    Properties p = properties(binding, "readproportion=0.3,updateproportion=0.2,scanproportion=0.2,"
        + "insertproportion=0.1,readmodifywriteproportion=0.2,requestdistribution=zipfian,maxscanlength=20");
    Measurements.setProperties(p);
    CoreWorkload w = new CoreWorkload();
    w.init(p);
    DB binding0 = (DB) Class.forName(YcsbRun.BINDINGS.get(binding)).getDeclaredConstructor().newInstance();
    Counting db = new Counting(binding0);
    db.setProperties(p);
    db.init();
    try {
      Object state = w.initThread(p, 0, 1);
      for (int i = 0; i < 300; i++) {
        assertThat(w.doInsert(db, state)).as("insert %d", i).isTrue();
      }
      for (int i = 0; i < 600; i++) {
        assertThat(w.doTransaction(db, state)).as("operation %d", i).isTrue();
      }
    } finally {
      db.cleanup();
      w.cleanup();
    }
    List<String> statuses = new ArrayList<>();
    Measurements.getMeasurements().exportMeasurements(new MeasurementsExporter() {
      @Override
      public void write(String metric, String measurement, int i) {
        statuses.add(metric + " " + measurement + " " + i);
      }

      @Override
      public void write(String metric, String measurement, long i) {
        statuses.add(metric + " " + measurement + " " + i);
      }

      @Override
      public void write(String metric, String measurement, double d) {
        statuses.add(metric + " " + measurement + " " + d);
      }

      @Override
      public void close() {
      }
    });
    assertThat(statuses).as(binding).anyMatch(s -> s.startsWith("VERIFY Return=OK"))
        .noneMatch(s -> s.startsWith("VERIFY Return=") && !s.startsWith("VERIFY Return=OK"));
    assertThat(db.statuses.keySet()).as("every operation kind ran and succeeded (NOT_FOUND: a deleted or"
        + " not yet inserted record)").contains("insert OK", "read OK", "update OK", "scan OK")
        .allMatch(k -> k.endsWith(" OK") || k.endsWith(" NOT_FOUND"));
  }

  /** Counts each operation's statuses, as YCSB's DBWrapper measures them. */
  private static final class Counting extends DB {
    final DB db;
    final java.util.Map<String, Integer> statuses = new java.util.TreeMap<>();

    Counting(DB db) {
      this.db = db;
    }

    private Status count(String op, Status s) {
      statuses.merge(op + " " + s.getName(), 1, Integer::sum);
      return s;
    }

    @Override
    public void setProperties(Properties p) {
      db.setProperties(p);
    }

    @Override
    public void init() throws site.ycsb.DBException {
      db.init();
    }

    @Override
    public void cleanup() throws site.ycsb.DBException {
      db.cleanup();
    }

    @Override
    public Status read(String t, String k, java.util.Set<String> f, java.util.Map<String, ByteIterator> r) {
      return count("read", db.read(t, k, f, r));
    }

    @Override
    public Status scan(String t, String k, int n, java.util.Set<String> f, Vector<HashMap<String, ByteIterator>> r) {
      return count("scan", db.scan(t, k, n, f, r));
    }

    @Override
    public Status update(String t, String k, java.util.Map<String, ByteIterator> v) {
      return count("update", db.update(t, k, v));
    }

    @Override
    public Status insert(String t, String k, java.util.Map<String, ByteIterator> v) {
      return count("insert", db.insert(t, k, v));
    }

    @Override
    public Status delete(String t, String k) {
      return count("delete", db.delete(t, k));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"bellows", "rocksdb"})
  void scansReturnRecordsInKeyOrderAndDeletesRemoveWholeRecords(String binding) throws Exception {
    Properties p = properties(binding, "readproportion=1");
    DB db = (DB) Class.forName(YcsbRun.BINDINGS.get(binding)).getDeclaredConstructor().newInstance();
    db.setProperties(p);
    db.init();
    try {
      for (String key : List.of("user1", "user10", "user2", "user20", "user3")) {
        HashMap<String, ByteIterator> v = new HashMap<>();
        v.put("field0", new StringByteIterator("a-" + key));
        v.put("field1", new StringByteIterator("b-" + key));
        assertThat(db.insert("usertable", key, v)).isEqualTo(Status.OK);
      }
      Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
      assertThat(db.scan("usertable", "user10", 3, null, rows)).isEqualTo(Status.OK);
      assertThat(rows).extracting(r -> r.get("field0").toString()).containsExactly("a-user10", "a-user2", "a-user20");
      HashMap<String, ByteIterator> update = new HashMap<>();
      update.put("field1", new StringByteIterator("new"));
      assertThat(db.update("usertable", "user2", update)).isEqualTo(Status.OK);
      HashMap<String, ByteIterator> read = new HashMap<>();
      assertThat(db.read("usertable", "user2", null, read)).isEqualTo(Status.OK);
      assertThat(read.get("field0").toString()).as("an update keeps the other fields").isEqualTo("a-user2");
      assertThat(read.get("field1").toString()).isEqualTo("new");
      assertThat(db.delete("usertable", "user2")).isEqualTo(Status.OK);
      assertThat(db.read("usertable", "user2", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);
      HashMap<String, ByteIterator> one = new HashMap<>();
      assertThat(db.read("usertable", "user20", java.util.Set.of("field1"), one)).isEqualTo(Status.OK);
      assertThat(one).containsOnlyKeys("field1");
    } finally {
      db.cleanup();
    }
  }

  @Test
  void forkedClientLoadsAndRunsACoreWorkload() throws Exception {
    Path workload = YcsbRun.workloadFile("a", dir);
    Path out = dir.resolve("ycsb.out");
    List<String> props = List.of("recordcount=200", "operationcount=400", "bellows.dir=" + dir.resolve("db"),
        "dataintegrity=true", "fieldlengthdistribution=constant");
    assertThat(YcsbRun.fork(YcsbRun.clientArgs("load", "bellows", workload, 2, props),
        ProcessBuilder.Redirect.to(out.toFile()))).as(read(out)).isZero();
    assertThat(read(out)).contains("[INSERT], Return=OK, 200");
    assertThat(YcsbRun.fork(YcsbRun.clientArgs("run", "bellows", workload, 2, props),
        ProcessBuilder.Redirect.to(out.toFile()))).as(read(out)).isZero();
    assertThat(read(out)).contains("[OVERALL], Throughput(ops/sec)").contains("[VERIFY], Return=OK")
        .doesNotContain("UNEXPECTED_STATE").doesNotContain("Return=ERROR");
  }

  @Test
  void familyTableAndEngineSettingsPassThroughByName() throws Exception {
    Properties p = properties("bellows", "readproportion=1");
    p.setProperty("bellows.family.VERSIONS", "3");
    p.setProperty("bellows.family.PIPELINE_MAX_SEGMENTS", "2");
    p.setProperty("bellows.table.MEMSTORE_FLUSHSIZE", "1048576");
    p.setProperty("bellows.blockcache.l1.size", "8m");
    BellowsClient db = new BellowsClient();
    db.setProperties(p);
    db.init();
    try {
      HashMap<String, ByteIterator> v = new HashMap<>();
      v.put("field0", new StringByteIterator("x"));
      assertThat(db.insert("usertable", "user1", v)).isEqualTo(Status.OK);
    } finally {
      db.cleanup();
    }
    try (io.bellows.client.Bellows b = io.bellows.client.Bellows.open(dir.resolve("bellows"),
        io.bellows.config.EngineOptions.defaults())) {
      io.bellows.schema.TableDescriptor t = b.describeTable("usertable");
      assertThat(t.flushSize()).isEqualTo(1 << 20);
      assertThat(t.family("f").maxVersions()).isEqualTo(3);
      assertThat(t.family("f").get(io.bellows.config.Knobs.PIPELINE_MAX_SEGMENTS)).isEqualTo(2);
    }

    Properties bad = properties("bellows", "readproportion=1");
    bad.setProperty("bellows.dir", dir.resolve("other").toString());
    bad.setProperty("bellows.family.VERSIONZ", "3");
    BellowsClient refused = new BellowsClient();
    refused.setProperties(bad);
    assertThatThrownBy(refused::init).isInstanceOf(site.ycsb.DBException.class).hasMessageContaining("VERSIONZ");
  }

  /** The binding reads its properties with the registry's parser; its short names are knobs' names. */
  @Test
  void aliasesAreKnobsAndTheDurabilityDefaultIsTheEngines() throws Exception {
    Properties p = properties("bellows", "readproportion=1");
    assertThat(BellowsClient.settings(p).values()).isEmpty();
    BellowsClient db = new BellowsClient();
    db.setProperties(p);
    db.init();
    try {
      HashMap<String, ByteIterator> v = new HashMap<>();
      v.put("field0", new StringByteIterator("x"));
      assertThat(db.insert("usertable", "user1", v)).isEqualTo(Status.OK);
    } finally {
      db.cleanup();
    }
    try (io.bellows.client.Bellows b = io.bellows.client.Bellows.open(dir.resolve("bellows"),
        io.bellows.config.EngineOptions.defaults())) {
      assertThat(b.describeTable("usertable").get(Knobs.TABLE_DURABILITY))
          .as("unset, the engine's default (bellows.durability.default) applies").isEqualTo(Durability.USE_DEFAULT);
    }
    p.setProperty("bellows.durability", "async_wal");
    p.setProperty("bellows.memstore.policy", "basic");
    p.setProperty("bellows.flush.size", "2M");
    assertThat(BellowsClient.settings(p).values()).containsEntry(Knobs.TABLE_DURABILITY, Durability.ASYNC_WAL)
        .containsEntry(Knobs.IN_MEMORY_COMPACTION, MemStorePolicy.BASIC).containsEntry(Knobs.MEMSTORE_FLUSHSIZE, 2L << 20);
  }

  @Test
  void wrongValuesAndUnknownNamesAreRefusedNamingTheKnob() {
    Properties p = properties("bellows", "readproportion=1");
    p.setProperty("bellows.memstore.policy", "SOMETIMES");
    assertThatThrownBy(() -> BellowsClient.settings(p))
        .hasMessageContaining("bellows.memstore.policy (short for IN_MEMORY_COMPACTION)")
        .hasMessageContaining("one of NONE BASIC EAGER ADAPTIVE");
    Properties typo = properties("bellows", "readproportion=1");
    typo.setProperty("bellows.wal.maxfiles", "8");
    assertThatThrownBy(() -> BellowsClient.settings(typo)).hasMessageContaining("unknown setting 'bellows.wal.maxfiles'");
    Properties scope = properties("bellows", "readproportion=1");
    scope.setProperty("bellows.family.MEMSTORE_FLUSHSIZE", "1M");
    assertThatThrownBy(() -> BellowsClient.settings(scope))
        .hasMessageContaining("MEMSTORE_FLUSHSIZE (a table setting): not settable here");
  }

  @Test
  void metricsArePrintedWhenTheLastClientClosesTheEngine() throws Exception {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    java.io.PrintStream metrics = new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8);
    SharedEngine first = SharedEngine.acquire(dir.resolve("m"), io.bellows.config.EngineOptions.defaults(), metrics);
    SharedEngine second = SharedEngine.acquire(dir.resolve("m"), io.bellows.config.EngineOptions.defaults(), null);
    assertThat(second).isSameAs(first);
    first.release();
    assertThat(out.size()).as("nothing while a client still uses the engine").isZero();
    second.release();
    assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8))
        .contains("[METRIC] kvcache.hits 0", "[METRIC] kvcache.promotions 0");
    Properties bad = properties("bellows", "readproportion=1");
    bad.setProperty("bellows.print.metrics", "yes");
    BellowsClient client = new BellowsClient();
    client.setProperties(bad);
    assertThatThrownBy(client::init).hasMessageContaining("bellows.print.metrics must be true or false, not 'yes'");
  }

  @Test
  void badArgumentsAreRefusedByName() {
    assertThatThrownBy(() -> YcsbRun.clientArgs("load", "leveldb", dir, 1, List.of()))
        .hasMessageContaining("unknown store 'leveldb'");
    assertThatThrownBy(() -> YcsbRun.clientArgs("bench", "bellows", dir, 1, List.of()))
        .hasMessageContaining("unknown phase 'bench'");
    assertThatThrownBy(() -> YcsbRun.clientArgs("run", "bellows", dir, 1, List.of("novalue")))
        .hasMessageContaining("name=value");
    assertThatThrownBy(() -> YcsbRun.workloadFile("g", dir)).hasMessageContaining("no workload 'g'");
  }

  private static String read(Path p) throws IOException {
    return Files.exists(p) ? Files.readString(p) : "";
  }
}
