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
import io.bellows.fs.Fault;
import io.bellows.fs.FaultInjectingFileSystem;
import io.bellows.fs.FaultInjectingFileSystem.Error;
import io.bellows.fs.FaultInjectingFileSystem.Op;
import io.bellows.fs.MemFileSystem;
import io.bellows.manifest.StoreManifest;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.BackgroundError;
import io.bellows.util.Bytes;
import io.bellows.util.StorageException;
import io.bellows.util.WritesStoppedException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the engine does when the disk fails, on {@link FaultInjectingFileSystem} over {@link
 * MemFileSystem}: a log whose write or force fails once heals itself (the write is acknowledged);
 * one that keeps failing stops writes, shows no write it could not make durable, loses nothing
 * acknowledged even across a power loss, and works again after resume() once the fault is gone; a failing flush is retried, stops writes with the disk's own reason, leaves no file half
 * there and resumes by itself once the fault is gone ("space freed"); a failing compaction is
 * retried without stopping writes; a failed directory sync after a rename fails the step it belongs
 * to. Every write here is FSYNC_WAL, so "acknowledged" means "survives a power loss". Waiting is on
 * the listener's latches, never by sleeping.
 */
class IoErrorTest {
  private static final Path DIR = Path.of("/io-errors/data");
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");
  private static final String STORE = "/tables/1-t/1/f";

  private final MemFileSystem disk = new MemFileSystem();
  private final FaultInjectingFileSystem fs = new FaultInjectingFileSystem(disk);
  private final RecordingListener rec = new RecordingListener();

  @BeforeEach
  void durableParent() throws IOException {
    AtomicFiles.createDirectories(disk, DIR.getParent());
  }

  private EngineOptions.Builder options() {
    return EngineOptions.builder().eventListener(rec).set(Knobs.DEFAULT_DURABILITY, Durability.FSYNC_WAL);
  }

  private Bellows open(EngineOptions.Builder options) {
    Bellows db = Bellows.open(DIR, options.build(), fs);
    if (!db.tableExists("t")) {
      db.createTable(TableDescriptor.builder("t").flushSize(64L * 1024).family("f").build());
    }
    return db;
  }

  /** Loses power now and reopens on what the disk kept, without faults. */
  private Bellows powerLossAndReopen(Bellows db) {
    MemFileSystem after = disk.crash(new Random(1), true);
    try {
      db.close();
    } catch (RuntimeException ignored) {
      // the machine is off
    }
    return Bellows.open(DIR, EngineOptions.defaults(), after);
  }

  private static void put(Table t, int i) {
    t.put(new Put(Bytes.of(row(i))).addColumn(F, Q, new byte[1000]));
  }

  private static String row(int i) {
    return String.format("r%06d", i);
  }

  private static void assertRows(Bellows db, int n) {
    Table t = db.getTable("t");
    for (int i = 0; i < n; i++) {
      assertThat(t.get(new Get(Bytes.of(row(i)))).isEmpty()).as("acknowledged row %d", i).isFalse();
    }
  }

  /** Writes rows until one fails; returns how many were acknowledged (the failure is in {@code failed[0]}). */
  private static int writeUntilFailure(Table t, int from, RuntimeException[] failed) {
    int i = from;
    for (; i < from + 1000; i++) {
      try {
        put(t, i);
      } catch (RuntimeException e) {
        failed[0] = e;
        return i;
      }
    }
    return i;
  }

  // ====================================================================== the log

  @Test
  @Timeout(60)
  void aTransientLogWriteFailureHealsTheLogAndTheWriteIsAcknowledgedAndDurable() {
    aTransientLogFailureHeals(Fault.on(Error.EIO, Op.WRITE).paths("/wal/").nth(1));
  }

  @Test
  @Timeout(60)
  void aTransientLogSyncFailureHealsTheLogAndTheWriteIsAcknowledgedAndDurable() {
    aTransientLogFailureHeals(Fault.on(Error.FSYNC, Op.SYNC).paths("/wal/").nth(1));
  }

  /**
   * One failed write or force of the log: the log fences the file (never written again) and
   * rewrites what it had not forced to a new file, so the write that met the fault is
   * acknowledged, writes never stop, and a power loss keeps every acknowledged row.
   */
  private void aTransientLogFailureHeals(Fault fault) {
    Bellows db = open(options());
    Table t = db.getTable("t");
    for (int i = 0; i < 10; i++) {
      put(t, i);
    }
    fs.inject(fault);
    for (int i = 10; i < 30; i++) {
      put(t, i); // none fails
    }
    assertThat(fault.fired()).as("the fault met a write").isEqualTo(1);
    assertThat(db.backgroundError()).isEmpty();
    assertThat(db.metrics().get("wal.files.fenced").longValue()).isEqualTo(1);
    try (Bellows reopened = powerLossAndReopen(db)) {
      assertThat(reopened.backgroundError()).isEmpty();
      assertRows(reopened, 30);
      put(reopened.getTable("t"), 30);
    }
  }

  @Test
  @Timeout(60)
  void aLogWriteThatCannotHealIsNeitherAcknowledgedNorVisibleAndResumeRecoversTheLog() {
    aLogThatCannotHeal(Fault.on(Error.EIO, Op.WRITE).paths("/wal/"), "Input/output error");
  }

  @Test
  @Timeout(60)
  void aLogSyncThatCannotHealIsNeitherAcknowledgedNorVisibleAndResumeRecoversTheLog() {
    aLogThatCannotHeal(Fault.on(Error.FSYNC, Op.SYNC).paths("/wal/"), "fsync failed");
  }

  /**
   * The log keeps failing, so it cannot heal: the write that met the fault throws, is not visible
   * (a power loss could take it back) and writes stop with the reason; once the fault is gone,
   * resume() recovers the log, which makes that write durable, and only then visible.
   */
  private void aLogThatCannotHeal(Fault fault, String reason) {
    Bellows db = open(options());
    Table t = db.getTable("t");
    for (int i = 0; i < 10; i++) {
      put(t, i);
    }
    fs.inject(fault);
    RuntimeException[] failed = new RuntimeException[1];
    int acknowledged = writeUntilFailure(t, 10, failed);
    assertThat(acknowledged).as("the first write after the fault fails").isEqualTo(10);
    assertThat(failed[0]).isInstanceOf(StorageException.class).isNotInstanceOf(WritesStoppedException.class)
        .hasMessageContaining("not acknowledged and is not visible").hasStackTraceContaining(reason);
    assertThat(t.get(new Get(Bytes.of(row(10)))).isEmpty()).as("the failed write is not visible").isTrue();
    BackgroundError e = db.backgroundError().orElseThrow();
    assertThat(e.kind()).isEqualTo(BackgroundError.Kind.WAL);
    assertThat(e.severity()).isEqualTo(BackgroundError.Severity.HARD);
    assertThatThrownBy(() -> put(t, 11)).isInstanceOf(WritesStoppedException.class).hasMessageContaining("resume()");
    assertRows(db, acknowledged); // reads go on
    assertThatThrownBy(db::resume).as("the fault is still there").isInstanceOf(StorageException.class)
        .hasMessageContaining("still fails");
    assertThat(t.get(new Get(Bytes.of(row(10)))).isEmpty()).isTrue();

    fault.disable();
    db.resume();
    assertThat(db.backgroundError()).isEmpty();
    assertThat(t.get(new Get(Bytes.of(row(10)))).isEmpty()).as("durable now, so visible").isFalse();
    put(t, 11);
    try (Bellows reopened = powerLossAndReopen(db)) {
      assertThat(reopened.backgroundError()).isEmpty();
      assertRows(reopened, 12);
    }
  }

  @Test
  @Timeout(60)
  void aLogThatCannotHealLosesNoAcknowledgedWriteInAPowerLossAndShowsNoUnacknowledgedOneBeforeIt() {
    Bellows db = open(options());
    Table t = db.getTable("t");
    for (int i = 0; i < 10; i++) {
      put(t, i);
    }
    fs.inject(Fault.on(Error.FSYNC, Op.SYNC).paths("/wal/"));
    assertThatThrownBy(() -> put(t, 10)).isInstanceOf(StorageException.class);
    assertThat(t.get(new Get(Bytes.of(row(10)))).isEmpty()).isTrue();
    try (Bellows reopened = powerLossAndReopen(db)) {
      assertRows(reopened, 10);
    }
  }

  @Test
  @Timeout(60)
  void aBatchWhoseLogCannotHealAcknowledgesAndShowsNoRowOfIt() {
    Bellows db = open(options());
    Table t = db.getTable("t");
    put(t, 0);
    Fault fault = fs.inject(Fault.on(Error.EIO, Op.WRITE).paths("/wal/"));
    List<Put> batch = new java.util.ArrayList<>();
    for (int i = 1; i <= 20; i++) {
      batch.add(new Put(Bytes.of(row(i))).addColumn(F, Q, new byte[100]));
    }
    assertThatThrownBy(() -> t.put(batch)).isInstanceOf(StorageException.class);
    for (int i = 1; i <= 20; i++) {
      assertThat(t.get(new Get(Bytes.of(row(i)))).isEmpty()).as("row %d of the failed batch", i).isTrue();
    }
    fault.disable();
    db.resume();
    assertRows(db, 21);
    db.close();
  }

  @Test
  @Timeout(60)
  void aLogRollThatCannotSyncTheDirectoryIsPostponedAndNoWriteFails() {
    Bellows db = open(options().set(Knobs.WAL_ROLL_SIZE, 64L * 1024));
    Table t = db.getTable("t");
    put(t, 0); // the first log file exists now
    Fault fault = fs.inject(Fault.on(Error.FSYNC, Op.SYNC_DIRECTORY).paths("/wal$"));
    for (int i = 1; i < 200; i++) {
      put(t, i); // past the roll size: the roll cannot make its file's name durable, appends go on
    }
    assertThat(fault.fired()).as("rolls were tried").isGreaterThanOrEqualTo(1);
    assertThat(db.backgroundError()).isEmpty();
    long rolled = db.metrics().get("wal.files.rolled").longValue();
    fault.disable();
    for (int i = 200; i < 1400; i++) {
      put(t, i);
    }
    assertThat(db.metrics().get("wal.files.rolled").longValue()).as("the roll happened once it could")
        .isGreaterThan(rolled);
    try (Bellows reopened = powerLossAndReopen(db)) {
      assertRows(reopened, 1400);
    }
  }

  /**
   * A flush fails, more writes come, then a split (or a close) flushes the region: the failed
   * flush's snapshot goes first, and the writes made since must follow before the parent is closed.
   * (The split took one flush for all, dropped the parent's memory with those writes in it, and
   * skipped their log edits at the next open as the parent's.)
   */
  @Test
  @Timeout(60)
  void aSplitAfterAFailedFlushKeepsTheWritesMadeSinceThatFlush() {
    Bellows db = open(options());
    Table t = db.getTable("t");
    for (int i = 0; i < 30; i++) {
      t.put(new Put(Bytes.of("a" + i)).addColumn(F, Q, Bytes.of("x")));
    }
    db.flush("t"); // the region has a file, so it can be split
    t.put(new Put(Bytes.of("k")).addColumn(F, Q, Bytes.of("v3")));
    Fault full = fs.inject(Fault.on(Error.ENOSPC, Op.CREATE).paths("\\.sst").nth(1));
    assertThatThrownBy(() -> db.flush("t")).isInstanceOf(StorageException.class);
    assertThat(full.fired()).isEqualTo(1);
    t.put(new Put(Bytes.of("k")).addColumn(F, Q, Bytes.of("v4")));
    t.put(new Put(Bytes.of("k")).addColumn(F, Q, Bytes.of("v5")));
    db.split("t", Bytes.of("b"));
    assertThat(Bytes.str(t.get(new Get(Bytes.of("k"))).getValue(F, Q))).as("after the split").isEqualTo("v5");
    db.close();
    try (Bellows reopened = Bellows.open(DIR, EngineOptions.defaults(), disk)) {
      assertThat(Bytes.str(reopened.getTable("t").get(new Get(Bytes.of("k"))).getValue(F, Q))).isEqualTo("v5");
    }
  }

  // ====================================================================== flushes

  @Test
  @Timeout(60)
  void aFlushOnAFullDiskIsRetriedStopsWritesWithTheReasonAndResumesWhenSpaceIsFreed() throws IOException {
    Bellows db = open(options().set(Knobs.FLUSH_FAILURES_STOP_WRITES, 3));
    Table t = db.getTable("t");
    Fault full = fs.inject(Fault.on(Error.ENOSPC, Op.CREATE, Op.WRITE).paths("\\.sst"));
    RuntimeException[] failed = new RuntimeException[1];
    int acknowledged = writeUntilFailure(t, 0, failed);
    try {
      assertThat(rec.writesStopped.await(30, TimeUnit.SECONDS)).as("writes stopped").isTrue();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    BackgroundError e = db.backgroundError().orElseThrow();
    assertThat(e.kind()).isEqualTo(BackgroundError.Kind.FLUSH);
    assertThat(e.severity()).isEqualTo(BackgroundError.Severity.HARD);
    assertThat(e.attempts()).as("retried").isGreaterThanOrEqualTo(3);
    assertThatThrownBy(() -> put(t, 100_000)).isInstanceOf(WritesStoppedException.class)
        .hasMessageContaining("No space left on device");
    assertThat(fs.injected(Error.ENOSPC)).isGreaterThanOrEqualTo(3);
    assertRows(db, acknowledged);
    assertNoStrayFiles(); // every attempt failed at creating its file: none can be in the making

    full.disable(); // space freed; nobody calls resume()
    try {
      assertThat(rec.recovered.await(30, TimeUnit.SECONDS)).as("a background retry worked").isTrue();
    } catch (InterruptedException ex) {
      throw new AssertionError(ex);
    }
    assertThat(db.backgroundError()).isEmpty();
    put(t, acknowledged);
    db.flush("t"); // waits for a background flush that may be writing its file now
    assertNoStrayFiles();
    try (Bellows reopened = powerLossAndReopen(db)) {
      assertRows(reopened, acknowledged + 1);
    }
  }

  @Test
  @Timeout(60)
  void writesToAStoreWhoseFlushesFailArePacedThenStopped() throws Exception {
    // Flush failures alone never stop writes here: the full memory store does, after a short wait.
    Bellows db = open(options().set(Knobs.FLUSH_FAILURES_STOP_WRITES, 1_000_000)
        .set(Knobs.MEMSTORE_BLOCK_MULTIPLIER, 2.0).set(Knobs.BLOCKING_WAIT_MS, 200L));
    Table t = db.getTable("t");
    fs.inject(Fault.on(Error.ENOSPC, Op.CREATE).paths("\\.sst"));
    RuntimeException[] failed = new RuntimeException[1];
    int acknowledged = writeUntilFailure(t, 0, failed);
    assertThat(db.metrics().get("writes.delayed.count.store.memory").longValue()).as("paced first").isPositive();
    assertThat(failed[0]).isInstanceOf(WritesStoppedException.class).hasMessageContaining("No space left on device");
    assertThat(rec.writesStopped.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(db.backgroundError()).get().extracting(BackgroundError::severity).isEqualTo(BackgroundError.Severity.HARD);
    assertRows(db, acknowledged);
    try (Bellows reopened = powerLossAndReopen(db)) {
      assertRows(reopened, acknowledged);
    }
  }

  @Test
  @Timeout(60)
  void aFailedDirectorySyncAfterASortedFilesRenameFailsTheFlush() {
    Bellows db = open(options());
    Table t = db.getTable("t");
    for (int i = 0; i < 10; i++) {
      put(t, i);
    }
    Fault fault = fs.inject(Fault.on(Error.FSYNC, Op.SYNC_DIRECTORY).paths(STORE + "$").nth(1));
    assertThatThrownBy(() -> db.flush("t")).as("the flush whose rename may not survive")
        .hasStackTraceContaining("fsync failed");
    assertThat(fault.fired()).isEqualTo(1);
    db.flush("t"); // the next attempt works
    assertThat(db.storeMetrics("t").values().stream().mapToLong(m -> m.get("store.files").longValue()).sum())
        .isEqualTo(1);
    try (Bellows reopened = powerLossAndReopen(db)) {
      assertRows(reopened, 10);
    }
  }

  // ====================================================================== compactions

  /**
   * A compaction whose manifest was renamed into place but whose directory sync then failed: the
   * disk may hold either manifest, so the output file must stay (it was deleted, and the reopen
   * found the new manifest naming a missing file while the inputs were gone as leftovers).
   */
  @Test
  @Timeout(60)
  void aCompactionWhoseManifestSyncFailsKeepsItsOutputSoEitherManifestOpens() {
    Bellows db = open(options().set(Knobs.COMPACTION_MIN_FILES, 10));
    Table t = db.getTable("t");
    for (int f = 0; f < 2; f++) {
      for (int i = 0; i < 5; i++) {
        put(t, f * 5 + i);
      }
      db.flush("t");
    }
    // The compaction's first store-directory sync follows its output's rename, the second the manifest's.
    Fault fault = fs.inject(Fault.on(Error.FSYNC, Op.SYNC_DIRECTORY).paths(STORE + "$").nth(2));
    assertThatThrownBy(() -> db.majorCompact("t")).hasStackTraceContaining("fsync failed");
    assertThat(fault.fired()).isEqualTo(1);
    fault.disable();
    try {
      db.close();
    } catch (RuntimeException ignored) {
      // the close may report the failed compaction again
    }
    try (Bellows reopened = Bellows.open(DIR, EngineOptions.defaults(), fs)) {
      assertRows(reopened, 10);
    }
  }

  @Test
  @Timeout(60)
  void aFailingCompactionIsRetriedWithoutStoppingWritesAndRecoversByItself() throws Exception {
    Bellows db = open(options().set(Knobs.COMPACTION_MIN_FILES, 3));
    Table t = db.getTable("t");
    // Three flushes make three files; the fourth sorted file made is the compaction's.
    Fault fault = fs.inject(Fault.on(Error.EIO, Op.CREATE).paths("\\.sst").from(4));
    int n = 0;
    for (int f = 0; f < 3; f++) {
      for (int i = 0; i < 5; i++) {
        put(t, n++);
      }
      db.flush("t");
    }
    assertThat(rec.firstError.await(30, TimeUnit.SECONDS)).as("the compaction failed").isTrue();
    BackgroundError e = db.backgroundError().orElseThrow();
    assertThat(e.kind()).isEqualTo(BackgroundError.Kind.COMPACTION);
    assertThat(e.severity()).isEqualTo(BackgroundError.Severity.SOFT);
    for (int i = 0; i < 5; i++) {
      put(t, n++); // writes go on
    }
    assertRows(db, n);
    fault.disable();
    assertThat(rec.recovered.await(30, TimeUnit.SECONDS)).as("a background retry worked").isTrue();
    assertThat(db.backgroundError()).isEmpty();
    assertThat(fs.injected(Op.CREATE)).isGreaterThanOrEqualTo(1);
    try (Bellows reopened = powerLossAndReopen(db)) {
      assertRows(reopened, n);
    }
  }

  /** Only the manifest and the files it lists are in the store directory: nothing half written. */
  private void assertNoStrayFiles() throws IOException {
    Path store = Path.of(DIR + STORE);
    StoreManifest m = StoreManifest.load(disk, store);
    List<String> expected = new java.util.ArrayList<>();
    expected.add(StoreManifest.FILE_NAME);
    m.fileIds().forEach(id -> expected.add(StoreManifest.fileName(id)));
    assertThat(disk.list(store).stream().map(p -> p.getFileName().toString()).toList())
        .containsExactlyInAnyOrderElementsOf(expected);
  }
}
