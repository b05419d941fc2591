package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.fs.AtomicFiles;
import io.bellows.fs.MemFileSystem;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.NoSuchColumnFamilyException;
import io.bellows.util.Clock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Alter (modifyTable): family knobs that reads use take effect at once, families are added and
 * deleted online while writes go on, and a power loss at any step leaves the table with its old or
 * its new families, never a deleted family's data back.
 */
class AlterTest {
  private static final Path DIR = Path.of("/alter/data");
  private static final byte[] F = Bytes.of("f");
  private static final byte[] G = Bytes.of("g");
  private static final byte[] Q = Bytes.of("q");

  private final MemFileSystem fs = new MemFileSystem();

  private Bellows open(MemFileSystem on, EngineOptions options) {
    return Bellows.open(DIR, options, on);
  }

  private Bellows open() throws IOException {
    AtomicFiles.createDirectories(fs, DIR.getParent());
    return open(fs, EngineOptions.builder().set(Knobs.DEFAULT_DURABILITY, Durability.FSYNC_WAL).build());
  }

  private static String value(Table t, String row, byte[] family) {
    byte[] v = t.get(new Get(Bytes.of(row))).getValue(family, Q);
    return v == null ? null : Bytes.str(v);
  }

  @Test
  void versionsAndTtlTakeEffectForReadsAtOnce() throws IOException {
    Clock.Manual clock = new Clock.Manual(1_000_000);
    AtomicFiles.createDirectories(fs, DIR.getParent());
    try (Bellows db = open(fs, EngineOptions.builder().clock(clock).build())) {
      db.createTable(TableDescriptor.builder("t").family(ColumnFamilyDescriptor.builder("f").maxVersions(3).build())
          .build(), List.of(Bytes.of("m")));
      Table t = db.getTable("t");
      for (int v = 1; v <= 3; v++) {
        t.put(new Put(Bytes.of("r")).addColumn(F, Q, clock.currentTimeMillis() + v, Bytes.of("v" + v)));
      }
      assertThat(t.get(new Get(Bytes.of("r")).readVersions(3)).size()).isEqualTo(3);
      db.modifyFamily("t", ColumnFamilyDescriptor.builder("f").maxVersions(1).build());
      assertThat(t.get(new Get(Bytes.of("r")).readVersions(3)).size()).as("VERSIONS 1").isEqualTo(1);
      assertThat(db.describeTable("t").family("f").maxVersions()).isEqualTo(1);

      db.modifyFamily("t", ColumnFamilyDescriptor.builder("f").set(Knobs.TTL, 10L).build());
      clock.advance(20_000);
      assertThat(t.get(new Get(Bytes.of("r"))).isEmpty()).as("expired by the new TTL").isTrue();
      assertThatThrownBy(() -> db.modifyFamily("t", ColumnFamilyDescriptor.of("nope")))
          .isInstanceOf(NoSuchColumnFamilyException.class);
    }
  }

  @Test
  @Timeout(120)
  void familiesAreAddedAndDeletedWhileWritesGoOn() throws Exception {
    int written;
    try (Bellows db = open()) {
      db.createTable(TableDescriptor.builder("t").family("f").flushSize(64L * 1024).build(), List.of(Bytes.of("r5")));
      Table t = db.getTable("t");
      assertThatThrownBy(() -> t.put(new Put(Bytes.of("r1")).addColumn(G, Q, Bytes.of("x"))))
          .isInstanceOf(NoSuchColumnFamilyException.class);
      AtomicBoolean stop = new AtomicBoolean();
      AtomicInteger acknowledged = new AtomicInteger();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(100);
      Thread writer = new Thread(() -> {
        try {
          for (int i = 0; !stop.get(); i++) {
            t.put(new Put(Bytes.of("r" + i)).addColumn(F, Q, Bytes.of("v" + i)));
            acknowledged.set(i + 1);
            started.countDown();
          }
        } catch (Throwable e) {
          failure.set(e);
        }
      });
      writer.start();
      started.await(); // the alters below run while the writer is at work
      db.addFamily("t", ColumnFamilyDescriptor.of("g"));
      t.put(new Put(Bytes.of("r1")).addColumn(G, Q, Bytes.of("g1")));
      db.modifyTable(db.describeTable("t").toBuilder().flushSize(128L * 1024).build());
      t.put(new Put(Bytes.of("r2")).addColumn(G, Q, Bytes.of("g2")));
      db.deleteFamily("t", "g");
      stop.set(true);
      writer.join();
      assertThat(failure.get()).as("no write of the other family failed").isNull();
      assertThat(db.describeTable("t").family("g")).isNull();
      assertThat(db.describeTable("t").flushSize()).isEqualTo(128L * 1024);
      assertThatThrownBy(() -> db.deleteFamily("t", "f")).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("at least one column family");
      written = acknowledged.get();
      assertThat(written).isGreaterThanOrEqualTo(100);
      for (int i = 0; i < written; i++) {
        assertThat(value(t, "r" + i, F)).isEqualTo("v" + i);
      }
      db.addFamily("t", ColumnFamilyDescriptor.of("g"));
      assertThat(value(t, "r1", G)).as("a deleted family's data does not come back").isNull();
    }
    MemFileSystem after = fs.crash(new Random(1), true);
    try (Bellows db = open(after, EngineOptions.defaults())) {
      Table t = db.getTable("t");
      assertThat(db.describeTable("t").family("g")).isNotNull();
      assertThat(value(t, "r1", G)).as("nor after a power loss (its log edits are older than the new store)").isNull();
      assertThat(value(t, "r2", G)).isNull();
      for (int i = 0; i < written; i++) {
        assertThat(value(t, "r" + i, F)).as("acknowledged row %d after the power loss", i).isEqualTo("v" + i);
      }
    }
  }

  /** A power loss at every operation of an add, a knob change and a delete: old or new, nothing half. */
  @Test
  @Timeout(300)
  void aPowerLossAtAnyStepLeavesTheOldOrTheNewFamilies() throws IOException {
    for (int at = 0; ; at++) {
      MemFileSystem disk = new MemFileSystem();
      AtomicFiles.createDirectories(disk, DIR.getParent());
      EngineOptions fsync = EngineOptions.builder().set(Knobs.DEFAULT_DURABILITY, Durability.FSYNC_WAL).build();
      try (Bellows db = open(disk, fsync)) {
        db.createTable(TableDescriptor.builder("t").family("f").family("g").build(), List.of(Bytes.of("r5")));
        for (int i = 0; i < 10; i++) {
          db.getTable("t").put(new Put(Bytes.of("r" + i)).addColumn(F, Q, Bytes.of("f" + i)).addColumn(G, Q,
              Bytes.of("g" + i)));
        }
      }
      disk.crashAtOperation(disk.mutations() + at, new Random(at), true);
      boolean finished = false;
      try (Bellows db = open(disk, fsync)) {
        db.addFamily("t", ColumnFamilyDescriptor.of("h"));
        db.getTable("t").put(new Put(Bytes.of("r1")).addColumn(Bytes.of("h"), Q, Bytes.of("h1")));
        db.modifyFamily("t", ColumnFamilyDescriptor.builder("f").maxVersions(5).build());
        db.deleteFamily("t", "g");
        finished = disk.crashed() == null;
      } catch (RuntimeException e) {
        if (disk.crashed() == null) {
          throw new AssertionError("failed without a power loss at operation " + at, e);
        }
      }
      MemFileSystem state = disk.crashed() == null ? disk : disk.crashed();
      if (disk.crashed() == null) {
        disk.crashAtOperation(-1, null, false);
      }
      try (Bellows db = open(state, EngineOptions.defaults())) {
        Table t = db.getTable("t");
        TableDescriptor d = db.describeTable("t");
        for (int i = 0; i < 10; i++) {
          assertThat(value(t, "r" + i, F)).as("power loss at %d", at).isEqualTo("f" + i);
          if (d.family("g") != null) {
            assertThat(value(t, "r" + i, G)).as("power loss at %d", at).isEqualTo("g" + i);
          }
        }
        if (d.family("h") != null) {
          db.getTable("t").put(new Put(Bytes.of("r2")).addColumn(Bytes.of("h"), Q, Bytes.of("h2")));
        }
        if (d.family("g") == null) {
          db.addFamily("t", ColumnFamilyDescriptor.of("g"));
          assertThat(value(t, "r3", G)).as("power loss at %d: deleted data stays deleted", at).isNull();
        }
      }
      if (finished) {
        assertThat(at).as("operations cut").isGreaterThan(10);
        return;
      }
    }
  }
}
