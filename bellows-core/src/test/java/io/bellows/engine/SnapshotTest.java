package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Delete;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.fs.AtomicFiles;
import io.bellows.fs.MemFileSystem;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import io.bellows.util.TableExistsException;
import io.bellows.util.TableNotEnabledException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots: a clone holds the table as snapshotted while both sides change; restore; SKIP_FLUSH; a
 * snapshot during concurrent writes, flushes, compactions and splits is the table after some prefix
 * of the writes; a power loss at any operation of snapshot, clone, restore or delete leaves a store
 * that opens without repair, with each operation whole or absent.
 */
@ExtendWith(SeedExtension.class)
class SnapshotTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] G = Bytes.of("g");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  private static TableDescriptor table(String name) {
    return TableDescriptor.builder(name).family(ColumnFamilyDescriptor.builder("f").maxVersions(2).build())
        .family("g").build();
  }

  private static String row(int i) {
    return String.format("r%03d", i);
  }

  private static void putAll(Table t, int n, String value) {
    for (int i = 0; i < n; i++) {
      t.put(new Put(Bytes.of(row(i))).addColumn(F, Q, Bytes.of(value)).addColumn(G, Q, Bytes.of(value + "g")));
    }
  }

  /** row -> "f value/g value" of every row. */
  private static Map<String, String> contents(Table t) {
    Map<String, String> out = new TreeMap<>();
    try (ResultScanner s = t.getScanner(new Scan())) {
      for (Result r : s) {
        byte[] f = r.getValue(F, Q);
        byte[] g = r.getValue(G, Q);
        out.put(Bytes.str(r.row()), (f == null ? "-" : Bytes.str(f)) + "/" + (g == null ? "-" : Bytes.str(g)));
      }
    }
    return out;
  }

  private static Map<String, String> expected(int n, String value) {
    Map<String, String> out = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      out.put(row(i), value + "/" + value + "g");
    }
    return out;
  }

  @Test
  @Timeout(60)
  void aCloneHoldsTheTableAsSnapshottedAndNeitherSideChangesTheOther() {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"), List.of(Bytes.of("r050")));
      Table t = db.getTable("t");
      putAll(t, 40, "v1");
      db.flush("t");
      putAll(t, 100, "v1"); // some only in memory: the snapshot flushes them
      db.snapshot("t", "s1");
      assertThat(db.listSnapshots()).extracting(SnapshotInfo::name, SnapshotInfo::table)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("s1", "t"));

      putAll(t, 100, "v2");
      t.delete(new Delete(Bytes.of(row(7))));
      db.flush("t");
      db.majorCompact("t");
      db.cloneSnapshot("s1", "c");
      assertThat(db.describeTable("c").families().toString()).isEqualTo(db.describeTable("t").families().toString());
      assertThat(db.regions("c")).hasSize(2);
      Table c = db.getTable("c");
      assertThat(contents(c)).isEqualTo(expected(100, "v1"));
      assertThat(contents(t)).hasSize(99).containsEntry(row(0), "v2/v2g");

      c.put(new Put(Bytes.of("c-only")).addColumn(F, Q, Bytes.of("x")));
      db.flush("c");
      db.majorCompact("c");
      db.disableTable("t");
      db.dropTable("t");
      db.cloneSnapshot("s1", "c2");
      assertThat(contents(db.getTable("c2"))).as("neither the clone's writes nor the drop touch the snapshot")
          .isEqualTo(expected(100, "v1"));
      assertThatThrownBy(() -> db.cloneSnapshot("s1", "c")).isInstanceOf(TableExistsException.class);
      assertThatThrownBy(() -> db.snapshot("c", "s1")).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("already exists");
      assertThatThrownBy(() -> db.cloneSnapshot("nope", "c3")).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("does not exist");
      assertThatThrownBy(() -> db.snapshot("c", "../x")).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("invalid snapshot name");
    }
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      assertThat(contents(db.getTable("c"))).containsEntry("c-only", "x/-").hasSize(101);
      assertThat(contents(db.getTable("c2"))).isEqualTo(expected(100, "v1"));
      db.deleteSnapshot("s1");
      assertThat(db.listSnapshots()).isEmpty();
      assertThat(contents(db.getTable("c2"))).as("a clone outlives its snapshot").isEqualTo(expected(100, "v1"));
    }
  }

  @Test
  @Timeout(60)
  void restoreBringsBackTheSnapshotsDataAndSettingsIntoADisabledTable() {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"));
      Table t = db.getTable("t");
      putAll(t, 30, "v1");
      db.snapshot("t", "s1");
      putAll(t, 60, "v2");
      db.split("t", Bytes.of(row(20)));
      assertThatThrownBy(() -> db.restoreSnapshot("s1")).isInstanceOf(TableNotEnabledException.class)
          .hasMessageContaining("disable it");
      db.disableTable("t");
      db.restoreSnapshot("s1");
      assertThat(db.isTableEnabled("t")).isFalse();
      db.enableTable("t");
      assertThat(contents(db.getTable("t"))).isEqualTo(expected(30, "v1"));
      assertThat(db.regions("t")).as("the snapshot's regions").hasSize(1);
      db.getTable("t").put(new Put(Bytes.of("after")).addColumn(F, Q, Bytes.of("a")));
    }
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      Map<String, String> want = expected(30, "v1");
      want.put("after", "a/-");
      assertThat(contents(db.getTable("t"))).isEqualTo(want);
      db.disableTable("t");
      db.dropTable("t");
      db.restoreSnapshot("s1"); // a dropped table comes back
      assertThat(contents(db.getTable("t"))).isEqualTo(expected(30, "v1"));
    }
  }

  @Test
  @Timeout(60)
  void withoutAFlushTheSnapshotLeavesOutWhatIsOnlyInMemory() {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"));
      Table t = db.getTable("t");
      putAll(t, 10, "v1");
      db.flush("t");
      putAll(t, 20, "v2");
      db.snapshot("t", "s", false);
      db.cloneSnapshot("s", "c");
      assertThat(contents(db.getTable("c"))).isEqualTo(expected(10, "v1"));
      assertThat(contents(t)).isEqualTo(expected(20, "v2"));
      db.disableTable("t");
      db.snapshot("t", "off"); // a disabled table: its files as they are
      db.cloneSnapshot("off", "c2");
      assertThat(contents(db.getTable("c2"))).isEqualTo(expected(20, "v2"));
    }
  }

  /**
   * One writer thread puts op numbers into random rows of a table with small flushes, compactions
   * and splits; snapshots are taken meanwhile. Each clone must be exactly the table after the first
   * k writes for some k (the largest op number it holds), as the writer's own order defines it.
   */
  @Test
  @Timeout(120)
  void aSnapshotDuringConcurrentWritesIsTheTableAtOnePointOfItsHistory(Seed seed) throws Exception {
    EngineOptions opts = EngineOptions.builder().set(Knobs.DEFAULT_DURABILITY, Durability.ASYNC_WAL).build();
    try (Bellows db = Bellows.open(dir, opts)) {
      db.createTable(TableDescriptor.builder("t").family("f").flushSize(64L * 1024)
          .set(Knobs.MAX_FILESIZE, 128L * 1024).build(), List.of(Bytes.of("r100")));
      Table t = db.getTable("t");
      java.util.concurrent.Semaphore progress = new java.util.concurrent.Semaphore(0);
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      Random rnd = seed.random();
      int[] rows = new int[200_000];
      for (int i = 0; i < rows.length; i++) {
        rows[i] = rnd.nextInt(300);
      }
      Thread writer = new Thread(() -> {
        try {
          byte[] pad = new byte[200];
          for (int op = 0; op < rows.length && !stop.get(); op++) {
            t.put(new Put(Bytes.of(row(rows[op]))).addColumn(F, Q, Bytes.of(Integer.toString(op)))
                .addColumn(F, Bytes.of("pad"), pad));
            if ((op + 1) % 3000 == 0) {
              progress.release(); // another 3000 writes acknowledged
            }
          }
        } catch (Throwable e) {
          failure.set(e);
        }
      });
      writer.start();
      List<String> names = new ArrayList<>();
      for (int s = 0; s < 4; s++) {
        progress.acquire();
        String name = "s" + s;
        db.snapshot("t", name); // with a flush (without, each region holds what it last flushed)
        names.add(name);
      }
      stop.set(true);
      writer.join();
      assertThat(failure.get()).isNull();
      for (String name : names) {
        db.cloneSnapshot(name, "c" + name);
        Map<String, Integer> clone = new TreeMap<>();
        try (ResultScanner sc = db.getTable("c" + name).getScanner(new Scan().addColumn(F, Q))) {
          for (Result r : sc) {
            clone.put(Bytes.str(r.row()), Integer.parseInt(Bytes.str(r.getValue(F, Q))));
          }
        }
        int k = clone.values().stream().mapToInt(Integer::intValue).max().orElse(-1);
        Map<String, Integer> prefix = new TreeMap<>();
        for (int op = 0; op <= k; op++) {
          prefix.put(row(rows[op]), op);
        }
        assertThat(clone).as("%s: %s is the table after its first %d writes", seed, name, k + 1).isEqualTo(prefix);
      }
    }
  }

  /**
   * A power loss at every mutating operation in turn of: snapshot, clone, restore, delete. Each
   * reopen works without repair; the snapshot and the clone are each whole (they read back as
   * written) or absent; the restored table is the snapshot or as it was.
   */
  @Test
  @Timeout(300)
  void aPowerLossAtAnyStepLeavesEachOperationWholeOrAbsent() throws IOException {
    Path data = Path.of("/snap/data");
    EngineOptions fsync = EngineOptions.builder().set(Knobs.DEFAULT_DURABILITY, Durability.FSYNC_WAL).build();
    for (int at = 0; ; at++) {
      MemFileSystem fs = new MemFileSystem();
      AtomicFiles.createDirectories(fs, data.getParent());
      try (Bellows db = Bellows.open(data, EngineOptions.defaults(), fs)) {
        db.createTable(table("t"), List.of(Bytes.of(row(5))));
        putAll(db.getTable("t"), 10, "v1");
        db.flush("t");
      }
      long base = fs.mutations();
      fs.crashAtOperation(base + at, new Random(at), true);
      boolean finished = false;
      try (Bellows db = Bellows.open(data, fsync, fs)) {
        db.snapshot("t", "s");
        db.cloneSnapshot("s", "c");
        putAll(db.getTable("t"), 10, "v2");
        db.disableTable("t");
        db.restoreSnapshot("s");
        db.snapshot("c", "gone");
        db.deleteSnapshot("gone");
        finished = fs.crashed() == null;
      } catch (RuntimeException e) {
        if (fs.crashed() == null) {
          throw new AssertionError("failed without a power loss at operation " + at, e);
        }
      }
      MemFileSystem after = fs.crashed() == null ? fs : fs.crashed();
      if (fs.crashed() == null) {
        fs.crashAtOperation(-1, null, false);
      }
      try (Bellows db = Bellows.open(data, EngineOptions.defaults(), after)) {
        List<String> snaps = db.listSnapshots().stream().map(SnapshotInfo::name).toList();
        if (snaps.contains("s")) {
          db.cloneSnapshot("s", "check");
          assertThat(contents(db.getTable("check"))).as("snapshot s after a power loss at %d", at)
              .isEqualTo(expected(10, "v1"));
        }
        if (db.tableExists("c")) {
          assertThat(contents(db.getTable("c"))).as("clone c after a power loss at %d", at).isEqualTo(expected(10, "v1"));
        }
        if (!db.isTableEnabled("t")) {
          db.enableTable("t");
        }
        Map<String, String> t = contents(db.getTable("t"));
        assertThat(t).as("table t after a power loss at %d", at).hasSize(10)
            .allSatisfy((row, v) -> assertThat(v).isIn("v1/v1g", "v2/v2g"));
        if (snaps.contains("gone")) {
          db.cloneSnapshot("gone", "check2");
          assertThat(contents(db.getTable("check2"))).isEqualTo(expected(10, "v1"));
        }
      }
      if (finished) {
        assertThat(at).as("operations cut").isGreaterThan(20);
        return;
      }
    }
  }
}
