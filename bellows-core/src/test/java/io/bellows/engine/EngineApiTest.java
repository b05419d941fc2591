package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.client.Bellows;
import io.bellows.client.Delete;
import io.bellows.util.EngineClosedException;
import io.bellows.client.Get;
import io.bellows.util.NoSuchColumnFamilyException;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.util.TableExistsException;
import io.bellows.util.TableNotEnabledException;
import io.bellows.util.TableNotFoundException;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.config.Compression;
import io.bellows.config.Durability;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import io.bellows.util.StorageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded API end to end: tables, mutations, reads, bad input, reopen. */
class EngineApiTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] G = Bytes.of("g");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  private final Clock.Manual clock = new Clock.Manual(1_000_000);

  private Bellows open() {
    return Bellows.open(dir, EngineOptions.builder().clock(clock).set(Knobs.MAX_VALUE_SIZE, 1024L).build());
  }

  private static void createDefault(Bellows db) {
    db.createTable(TableDescriptor.builder("t")
        .family(ColumnFamilyDescriptor.builder("f").maxVersions(3).build())
        .family(ColumnFamilyDescriptor.builder("g").compression(Compression.LZ4).build())
        .build());
  }

  private static byte[] b(String s) {
    return Bytes.of(s);
  }

  @Test
  void tablesCanBeCreatedDescribedListedDisabledAndDropped() {
    try (Bellows db = open()) {
      createDefault(db);
      assertThat(db.listTables()).containsExactly("t");
      assertThat(db.describeTable("t").family("f").maxVersions()).isEqualTo(3);
      assertThatThrownBy(() -> createDefault(db)).isInstanceOf(TableExistsException.class);
      assertThatThrownBy(() -> db.dropTable("t")).isInstanceOf(TableNotEnabledException.class);
      db.disableTable("t");
      assertThatThrownBy(() -> db.getTable("t").get(new Get("r"))).isInstanceOf(TableNotEnabledException.class);
      db.enableTable("t");
      db.getTable("t").put(new Put("r").addColumn("f", "q", "v"));
      db.disableTable("t");
      db.dropTable("t");
      assertThat(db.listTables()).isEmpty();
      assertThatThrownBy(() -> db.getTable("t")).isInstanceOf(TableNotFoundException.class);
      createDefault(db);
      assertThat(db.getTable("t").get(new Get("r")).isEmpty()).as("a new table of a dropped name is empty").isTrue();
    }
    try (Bellows db = open()) {
      assertThat(db.listTables()).containsExactly("t");
      assertThat(db.describeTable("t").family("g").get(Knobs.COMPRESSION)).isEqualTo(Compression.LZ4);
    }
  }

  @Test
  void aMultiGetAnswersEachGetInOrderAcrossRegions() {
    try (Bellows db = open()) {
      db.createTable(TableDescriptor.builder("m").family("f").family("g").build(), List.of(b("m")));
      Table t = db.getTable("m");
      t.put(new Put("a").addColumn("f", "q", "1").addColumn("g", "q", "2"));
      t.put(new Put("z").addColumn("f", "q", "3"));
      List<Result> rs = t.get(List.of(new Get("z"), new Get("missing"), new Get("a").addFamily(b("g")), new Get("a")));
      assertThat(rs).hasSize(4);
      assertThat(Bytes.str(rs.get(0).getValue(b("f"), Q))).isEqualTo("3");
      assertThat(rs.get(1).isEmpty()).isTrue();
      assertThat(rs.get(2).size()).isEqualTo(1);
      assertThat(Bytes.str(rs.get(2).getValue(b("g"), Q))).isEqualTo("2");
      assertThat(rs.get(3).size()).isEqualTo(2);
      assertThat(t.get(List.of())).isEmpty();
    }
  }

  @Test
  void putGetScanDeleteAndVersions() {
    try (Bellows db = open()) {
      createDefault(db);
      Table t = db.getTable("t");
      for (long ts = 1; ts <= 5; ts++) {
        t.put(new Put(b("r1")).addColumn(F, Q, ts, b("v" + ts)));
      }
      t.put(new Put(b("r1")).addColumn(G, Q, b("g1")));
      t.put(new Put(b("r2")).addColumn(F, Q, b("x")));
      Result r = t.get(new Get(b("r1")).readAllVersions());
      assertThat(values(r.getColumnCells(F, Q))).containsExactly("v5", "v4", "v3");
      assertThat(Bytes.str(r.getValue(G, Q))).isEqualTo("g1");
      assertThat(values(t.get(new Get(b("r1")).addColumn(F, Q).setTimeRange(3, 5).readAllVersions()).cells()))
          .containsExactly("v4", "v3");
      t.delete(new Delete(b("r1")).addColumn(F, Q, 5));
      assertThat(values(t.get(new Get(b("r1")).addFamily(F).readAllVersions()).cells())).containsExactly("v4", "v3");
      t.delete(new Delete(b("r1")).addColumns(F, Q));
      assertThat(t.get(new Get(b("r1")).addFamily(F)).isEmpty()).isTrue();
      assertThat(t.get(new Get(b("r1"))).size()).isEqualTo(1);
      t.delete(new Delete(b("r2")));
      assertThat(t.get(new Get(b("r2"))).isEmpty()).isTrue();
      db.flush("t");
      db.majorCompact("t");
      assertThat(rows(t, new Scan())).containsExactly("r1");
    }
  }

  @Test
  void scanHonoursBoundsLimitAndColumns() {
    try (Bellows db = open()) {
      createDefault(db);
      Table t = db.getTable("t");
      for (char c = 'a'; c <= 'j'; c++) {
        t.put(new Put(b(String.valueOf(c))).addColumn(F, Q, b("v")).addColumn(G, Q, b("w")));
      }
      db.flush("t");
      t.put(new Put(b("c")).addColumn(F, Q, b("new")));
      assertThat(rows(t, new Scan().withStartRow(b("c")).withStopRow(b("f")))).containsExactly("c", "d", "e");
      assertThat(rows(t, new Scan().withStartRow(b("c"), false).withStopRow(b("f"), true))).containsExactly("d", "e", "f");
      assertThat(rows(t, new Scan().setLimit(2))).containsExactly("a", "b");
      try (ResultScanner s = t.getScanner(new Scan().addFamily(G).withStartRow(b("c")).setLimit(1))) {
        Result r = s.next();
        assertThat(r.size()).isEqualTo(1);
        assertThat(Bytes.str(r.getValue(G, Q))).isEqualTo("w");
      }
    }
  }

  @Test
  void checkAndMutateAndIncrementAreAtomicPerRow() {
    try (Bellows db = open()) {
      createDefault(db);
      Table t = db.getTable("t");
      assertThat(t.checkAndPut(b("r"), F, Q, null, new Put(b("r")).addColumn(F, Q, b("1")))).isTrue();
      assertThat(t.checkAndPut(b("r"), F, Q, null, new Put(b("r")).addColumn(F, Q, b("2")))).isFalse();
      assertThat(t.checkAndPut(b("r"), F, Q, b("1"), new Put(b("r")).addColumn(F, Q, b("2")))).isTrue();
      assertThat(Bytes.str(t.get(new Get(b("r"))).getValue(F, Q))).isEqualTo("2");
      assertThat(t.checkAndDelete(b("r"), F, Q, b("1"), new Delete(b("r")))).isFalse();
      assertThat(t.checkAndDelete(b("r"), F, Q, b("2"), new Delete(b("r")))).isTrue();
      assertThat(t.get(new Get(b("r"))).isEmpty()).isTrue();
      assertThat(t.incrementColumnValue(b("c"), G, Q, 5)).isEqualTo(5);
      assertThat(t.incrementColumnValue(b("c"), G, Q, -2)).isEqualTo(3);
      t.put(new Put(b("c")).addColumn(G, b("text"), b("abc")));
      assertThatThrownBy(() -> t.incrementColumnValue(b("c"), G, b("text"), 1))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("8-byte counter");
    }
  }

  @Test
  void badInputIsRejectedAndLeavesTheStoreUnchanged() {
    try (Bellows db = open()) {
      createDefault(db);
      Table t = db.getTable("t");
      assertThatThrownBy(() -> new Put(new byte[0])).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> new Put((byte[]) null)).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> new Put(new byte[32 * 1024 + 1])).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("row key");
      assertThatThrownBy(() -> t.put(new Put(b("r")).addColumn(F, Q, new byte[2000])))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bellows.max.value.size");
      assertThatThrownBy(() -> t.put(new Put(b("r")).addColumn(b("nope"), Q, b("v"))))
          .isInstanceOf(NoSuchColumnFamilyException.class).hasMessageContaining("nope");
      // A batch with one bad put writes nothing.
      List<Put> batch = List.of(new Put(b("ok")).addColumn(F, Q, b("v")), new Put(b("bad")).addColumn(b("nope"), Q, b("v")));
      assertThatThrownBy(() -> t.put(batch)).isInstanceOf(NoSuchColumnFamilyException.class);
      assertThat(rows(t, new Scan())).isEmpty();
      assertThatThrownBy(() -> t.get(new Get(b("r")).addFamily(b("nope")))).isInstanceOf(NoSuchColumnFamilyException.class);
      assertThatThrownBy(() -> db.getTable("missing")).isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> TableDescriptor.builder("bad name").family("f").build())
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> TableDescriptor.builder("x").build()).isInstanceOf(IllegalArgumentException.class);
    }
    Bellows closed = open();
    Table t = closed.getTable("t");
    closed.close();
    assertThatThrownBy(() -> t.put(new Put(b("r")).addColumn(F, Q, b("v")))).isInstanceOf(EngineClosedException.class);
    assertThatThrownBy(() -> closed.listTables()).isInstanceOf(EngineClosedException.class);
  }

  @Test
  void secondOpenOfTheSameDirectoryFails() {
    try (Bellows db = open()) {
      assertThatThrownBy(this::open).isInstanceOf(StorageException.class).hasMessageContaining("in use");
    }
  }

  @Test
  void dataSurvivesReopenForEveryDurability() {
    try (Bellows db = open()) {
      createDefault(db);
      Table t = db.getTable("t");
      for (Durability d : Durability.values()) {
        t.put(new Put(b("r-" + d)).addColumn(F, Q, b(d.name())).setDurability(d));
      }
    }
    try (Bellows db = open()) {
      Table t = db.getTable("t");
      for (Durability d : Durability.values()) {
        assertThat(Bytes.str(t.get(new Get(b("r-" + d))).getValue(F, Q))).isEqualTo(d.name());
      }
    }
  }

  @Test
  void ttlExpiresCellsByTheInjectedClock() {
    try (Bellows db = open()) {
      db.createTable(TableDescriptor.builder("ttl").family(ColumnFamilyDescriptor.builder("f").ttlSeconds(10).build()).build());
      Table t = db.getTable("ttl");
      t.put(new Put(b("r")).addColumn(F, Q, b("v")));
      assertThat(t.get(new Get(b("r"))).isEmpty()).isFalse();
      clock.advance(11_000);
      assertThat(t.get(new Get(b("r"))).isEmpty()).isTrue();
      db.flush("ttl");
      db.majorCompact("ttl");
      assertThat(db.storeMetrics("ttl").get("f").get("store.files").longValue()).isLessThanOrEqualTo(1);
    }
  }

  @Test
  void flushCellsCountsWhatTheFlushWroteNotWhatItDropped() {
    try (Bellows db = open()) {
      createDefault(db); // family f keeps 3 versions
      Table t = db.getTable("t");
      for (long ts = 1; ts <= 5; ts++) {
        t.put(new Put(b("r")).addColumn(F, Q, ts, b("v" + ts)));
      }
      db.flush("t");
      assertThat(db.storeMetrics("t").get("f").get("flush.cells").longValue()).isEqualTo(3);
      assertThat(Bytes.str(t.get(new Get(b("r"))).getValue(F, Q))).isEqualTo("v5");
    }
  }

  @Test
  void metricsAreReadable() {
    try (Bellows db = open()) {
      createDefault(db);
      db.getTable("t").put(new Put(b("r")).addColumn(F, Q, b("v")));
      db.flush("t");
      assertThat(db.metrics()).containsKeys("flush.count", "jvm.gc.count", "memstore.data.bytes", "writes.blocked.nanos");
      assertThat(db.metrics().get("flush.count").longValue()).isEqualTo(1);
      assertThat(db.storeMetrics("t").get("f")).containsKeys("store.files", "flush.bytes.written",
          "memstore.data.bytes", "memstore.cells");
      // One spelling per metric: lowercase words joined by dots (no camelCase twin of a dotted name).
      assertThat(db.storeMetrics("t").get("f").keySet()).allMatch(k -> k.matches("[a-z0-9_]+(\\.[a-z0-9_]+)*"), "dotted lowercase");
      assertThat(db.metrics().keySet()).allMatch(k -> k.matches("[a-z0-9_]+(\\.[a-z0-9_]+)*"), "dotted lowercase");
      assertThat(Files.exists(dir.resolve("CATALOG"))).isTrue();
    }
  }

  private static List<String> values(List<Cell> cells) {
    List<String> out = new ArrayList<>();
    for (Cell c : cells) {
      out.add(Bytes.str(c.value()));
    }
    return out;
  }

  private static List<String> rows(Table t, Scan scan) {
    List<String> out = new ArrayList<>();
    try (ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        out.add(Bytes.str(r.row()));
      }
    }
    return out;
  }
}
