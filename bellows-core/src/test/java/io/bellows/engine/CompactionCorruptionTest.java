package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.fs.Fault;
import io.bellows.fs.FaultInjectingFileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.BackgroundError;
import io.bellows.util.Bytes;
import io.bellows.util.CorruptionException;
import io.bellows.util.EventListener;
import io.bellows.util.WritesStoppedException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The corruption policy: a background compaction that meets a damaged sorted file records one HARD
 * CORRUPTION error naming the file, counts it, tells the listeners, and never retries; writes to that
 * store are refused naming the file and {@code bellows repair}, everything else goes on. With
 * {@code bellows.corruption.quarantine} the file is set aside online instead and the store goes on.
 *
 * <p>The damage is real: a byte of the oldest file's first data block is flipped on disk while the
 * engine runs (compactions read files directly, not through the block cache). Synchronisation is by
 * the listener's latch, never by sleeping.
 */
class CompactionCorruptionTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] G = Bytes.of("g");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  private static EngineOptions options(RecordingListener rec, boolean quarantine) {
    return EngineOptions.builder().set(Knobs.COMPACTION_MIN_FILES, 3).set(Knobs.CORRUPTION_QUARANTINE, quarantine)
        .eventListener(rec).build();
  }

  /** Tables t (families f, g) and u (f); t's stores get two files, then f's oldest is damaged. */
  private Path twoFilesThenDamage(Bellows db) throws IOException {
    db.createTable(TableDescriptor.builder("t").family("f").family("g").build());
    db.createTable(TableDescriptor.builder("u").family("f").build());
    Table t = db.getTable("t");
    for (String prefix : List.of("a", "b")) {
      for (int i = 0; i < 50; i++) {
        t.put(new Put(Bytes.of(prefix + i)).addColumn(F, Q, Bytes.of("f-" + prefix + i))
            .addColumn(G, Q, Bytes.of("g-" + prefix + i)));
      }
      db.flush("t");
    }
    db.getTable("u").put(new Put(Bytes.of("x")).addColumn(F, Q, Bytes.of("u-x")));
    Path oldest = sortedFiles(StoreDirs.store(dir, "t", "f")).get(0);
    flipByte(oldest, 40); // inside the first data block
    return oldest;
  }

  /** A third flush: the stores reach bellows.compaction.min.files and compact in the background. */
  private static void thirdFileStartsACompaction(Bellows db) {
    Table t = db.getTable("t");
    for (int i = 0; i < 50; i++) {
      t.put(new Put(Bytes.of("c" + i)).addColumn(F, Q, Bytes.of("f-c" + i)).addColumn(G, Q, Bytes.of("g-c" + i)));
    }
    db.flush("t");
  }

  @Test
  @Timeout(60)
  void damagedFileIsOneHardErrorThatStopsWritesToItsStoreOnlyAndIsNeverRetried() throws Exception {
    RecordingListener rec = new RecordingListener();
    Path damaged;
    try (Bellows db = Bellows.open(dir, options(rec, false))) {
      damaged = twoFilesThenDamage(db);
      String name = damaged.getFileName().toString();
      thirdFileStartsACompaction(db);
      assertThat(rec.corruptionFound.await(30, TimeUnit.SECONDS)).as("corruption found").isTrue();

      // One HARD CORRUPTION error naming the file; the event says where and that nothing was set aside.
      BackgroundError e = db.backgroundError().orElseThrow();
      assertThat(e.kind()).isEqualTo(BackgroundError.Kind.CORRUPTION);
      assertThat(e.severity()).isEqualTo(BackgroundError.Severity.HARD);
      assertThat(e.table()).isEqualTo("t");
      assertThat(e.message()).contains(name).contains("bellows repair");
      assertThat(rec.errors).extracting(s -> s.info().kind()).containsExactly(BackgroundError.Kind.CORRUPTION);
      assertThat(rec.corruptions).hasSize(1);
      EventListener.CorruptionInfo info = rec.corruptions.get(0).info();
      assertThat(info.table()).isEqualTo("t");
      assertThat(info.family()).isEqualTo("f");
      assertThat(info.file()).endsWith(name);
      assertThat(info.offset()).isBetween(0L, 40L);
      assertThat(info.quarantinedTo()).isNull();
      assertThat(rec.corruptions.get(0).thread()).startsWith("bellows-compaction");
      assertThat(db.metrics().get("corruption.files.found").longValue()).isEqualTo(1);
      assertThat(db.metrics().get("corruption.stores.damaged").intValue()).isEqualTo(1);

      // Writes to the damaged store are refused, naming the file and the repair; nothing of them applied.
      Table t = db.getTable("t");
      assertThatThrownBy(() -> t.put(new Put(Bytes.of("new")).addColumn(F, Q, Bytes.of("x"))))
          .isInstanceOf(WritesStoppedException.class).hasMessageContaining(name).hasMessageContaining("bellows repair");
      assertThatThrownBy(() -> t.put(new Put(Bytes.of("both")).addColumn(F, Q, Bytes.of("x")).addColumn(G, Q,
          Bytes.of("y")))).isInstanceOf(WritesStoppedException.class);
      assertThat(t.get(new Get(Bytes.of("both"))).isEmpty()).isTrue();
      // Everything else goes on: the table's other family, other tables, reads of undamaged files.
      t.put(new Put(Bytes.of("new")).addColumn(G, Q, Bytes.of("g-new")));
      assertThat(Bytes.str(t.get(new Get(Bytes.of("new"))).getValue(G, Q))).isEqualTo("g-new");
      assertThat(Bytes.str(t.get(new Get(Bytes.of("a7")).addFamily(G)).getValue(G, Q))).isEqualTo("g-a7");
      db.getTable("u").put(new Put(Bytes.of("y")).addColumn(F, Q, Bytes.of("u-y")));
      assertThat(Bytes.str(db.getTable("u").get(new Get(Bytes.of("x"))).getValue(F, Q))).isEqualTo("u-x");
      assertThat(db.backgroundError().orElseThrow().stopsWrites()).as("not every write is stopped").isFalse();

      // Never a retry loop: asking again does not read the file again, and nothing is being retried.
      assertThatThrownBy(() -> db.compact("t")).isInstanceOf(CorruptionException.class).hasMessageContaining(name);
      assertThatThrownBy(() -> db.majorCompact("t")).isInstanceOf(CorruptionException.class);
      db.resume();
      assertThat(rec.compactionBegins.stream().filter(s -> s.info().table().equals("t")
          && s.info().family().equals("f"))).hasSize(1);
      assertThat(db.metrics().get("compaction.failures").longValue()).isZero();
      assertThat(db.metrics().get("background.work.failing").intValue()).isZero();
      assertThat(db.metrics().get("corruption.files.found").longValue()).isEqualTo(1);
      assertThat(rec.corruptions).hasSize(1);
      assertThat(Files.exists(damaged)).as("the engine never deletes the damaged file").isTrue();
    }

    // Offline repair sets the file aside; after it the store takes writes again.
    Repair.Report report = Repair.run(dir, true, new PrintStream(new ByteArrayOutputStream()));
    assertThat(report.allRepaired()).isTrue();
    try (Bellows db = Bellows.open(dir, options(new RecordingListener(), false))) {
      db.getTable("t").put(new Put(Bytes.of("after")).addColumn(F, Q, Bytes.of("ok")));
      assertThat(db.backgroundError()).isEmpty();
    }
  }

  @Test
  @Timeout(60)
  void withQuarantineTheFileIsSetAsideOnlineAndTheStoreGoesOnAndReopensWithoutRepair() throws Exception {
    RecordingListener rec = new RecordingListener();
    Path damaged;
    try (Bellows db = Bellows.open(dir, options(rec, true))) {
      damaged = twoFilesThenDamage(db);
      thirdFileStartsACompaction(db);
      assertThat(rec.corruptionFound.await(30, TimeUnit.SECONDS)).as("corruption found").isTrue();

      EventListener.CorruptionInfo info = rec.corruptions.get(0).info();
      assertThat(info.quarantinedTo()).isEqualTo(dir.relativize(dir.resolve(Repair.DAMAGED)
          .resolve(dir.relativize(damaged))).toString());
      Path aside = dir.resolve(info.quarantinedTo());
      assertThat(aside).exists();
      assertThat(Files.size(aside)).isPositive();
      assertThat(rec.errors).isEmpty();
      assertThat(db.metrics().get("corruption.files.found").longValue()).isEqualTo(1);
      assertThat(db.metrics().get("corruption.files.quarantined").longValue()).isEqualTo(1);
      assertThat(db.metrics().get("corruption.stores.damaged").intValue()).isZero();

      Table t = db.getTable("t");
      t.put(new Put(Bytes.of("new")).addColumn(F, Q, Bytes.of("f-new")));
      assertThat(Bytes.str(t.get(new Get(Bytes.of("new"))).getValue(F, Q))).isEqualTo("f-new");
      assertThat(Bytes.str(t.get(new Get(Bytes.of("b7"))).getValue(F, Q))).isEqualTo("f-b7");
    }

    // Reopens without a repair: the damaged file's cells are gone, everything else is there.
    Repair.Report check = Repair.run(dir, false, new PrintStream(new ByteArrayOutputStream()));
    assertThat(check.clean()).as("nothing left damaged: %s", check.findings()).isTrue();
    try (Bellows db = Bellows.open(dir, options(new RecordingListener(), true))) {
      Table t = db.getTable("t");
      assertThat(Bytes.str(t.get(new Get(Bytes.of("new"))).getValue(F, Q))).isEqualTo("f-new");
      assertThat(Bytes.str(t.get(new Get(Bytes.of("c7"))).getValue(F, Q))).isEqualTo("f-c7");
      assertThat(t.get(new Get(Bytes.of("a7"))).getValue(F, Q)).as("lost with the damaged file").isNull();
      assertThat(Bytes.str(t.get(new Get(Bytes.of("a7"))).getValue(G, Q))).isEqualTo("g-a7");
    }
    assertThat(dir.resolve(Repair.DAMAGED).resolve(dir.relativize(damaged))).as("kept for inspection").exists();
  }

  /**
   * Quarantine stopped between its two steps (the file linked into damaged/, the manifest write
   * failing), then the engine closed: the store still opens, with the file still listed, and the
   * writes to it were refused meanwhile rather than the file being lost half set aside.
   */
  @Test
  @Timeout(60)
  void quarantineInterruptedBeforeTheManifestWriteLeavesAStoreThatOpens() throws Exception {
    RecordingListener rec = new RecordingListener();
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(LocalFileSystem.INSTANCE);
    Path damaged;
    try (Bellows db = Bellows.open(dir, options(rec, true), fs)) {
      damaged = twoFilesThenDamage(db);
      fs.inject(Fault.on(FaultInjectingFileSystem.Error.EIO, FaultInjectingFileSystem.Op.RENAME)
          .paths("1-t/1/f/MANIFEST").from(2)); // the third flush commits; the quarantine does not
      thirdFileStartsACompaction(db);
      assertThat(rec.corruptionFound.await(30, TimeUnit.SECONDS)).as("corruption found").isTrue();
      assertThat(rec.corruptions.get(0).info().quarantinedTo()).isNull();
      assertThat(db.backgroundError().orElseThrow().kind()).isEqualTo(BackgroundError.Kind.CORRUPTION);
      assertThatThrownBy(() -> db.getTable("t").put(new Put(Bytes.of("new")).addColumn(F, Q, Bytes.of("x"))))
          .isInstanceOf(WritesStoppedException.class);
      assertThat(damaged).exists();
      assertThat(dir.resolve(Repair.DAMAGED).resolve(dir.relativize(damaged))).exists();
    }
    try (Bellows db = Bellows.open(dir, options(new RecordingListener(), false))) {
      assertThat(sortedFiles(StoreDirs.store(dir, "t", "f"))).contains(damaged);
      assertThat(Bytes.str(db.getTable("t").get(new Get(Bytes.of("c7"))).getValue(F, Q))).isEqualTo("f-c7");
    }
  }

  static List<Path> sortedFiles(Path store) throws IOException {
    try (Stream<Path> s = Files.list(store)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".sst")).sorted().toList();
    }
  }

  static void flipByte(Path file, long offset) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      int b = f.read();
      f.seek(offset);
      f.write(b ^ 0x5A);
    }
  }
}
