package io.bellows.wal;

import static io.bellows.wal.WalTestSupport.edit;
import static io.bellows.wal.WalTestSupport.flat;
import static io.bellows.wal.WalTestSupport.quiet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.config.Durability;
import io.bellows.fs.Fault;
import io.bellows.fs.FaultInjectingFileSystem;
import io.bellows.fs.FaultInjectingFileSystem.Error;
import io.bellows.fs.FaultInjectingFileSystem.Op;
import io.bellows.fs.LocalFileSystem;
import io.bellows.fs.MemFileSystem;
import io.bellows.record.WriteRecord;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.StorageException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the log heals a failed write or force: the failed file is fenced (cut back to its last forced
 * byte, never written again) and every record after that byte is rewritten to a new file and forced
 * there, so the sync that met the fault succeeds; a log that cannot heal refuses appends until
 * {@link Wal#recover} works. Replay then returns every edit once, in order, whatever the failed file
 * held past its forced byte.
 */
@ExtendWith(SeedExtension.class)
class WalHealTest {
  private static final Path DIR = Path.of("/wal");

  @TempDir Path tmp;
  private Seed seed;

  @BeforeEach
  void takeSeed(Seed seed) {
    this.seed = seed;
  }

  private final MemFileSystem disk = new MemFileSystem();
  private final FaultInjectingFileSystem fs = new FaultInjectingFileSystem(disk);

  private static List<String> replay(MemFileSystem fs) {
    List<WriteRecord> out = new ArrayList<>();
    try (Wal wal = Wal.open(fs, DIR, quiet())) {
      wal.replay(out::add);
    }
    return flat(out);
  }

  @Test
  void aFailedForceFencesTheFileRewritesWhatItHadNotForcedAndTheSyncSucceeds() {
    Random rnd = seed.random();
    List<WriteRecord> written = new ArrayList<>();
    try (Wal wal = Wal.open(fs, DIR, quiet())) {
      for (int i = 1; i <= 5; i++) {
        WriteRecord e = edit(1, i, rnd);
        wal.sync(wal.append(e), Durability.FSYNC_WAL);
        written.add(e);
      }
      // Written to the file but not forced (SYNC_WAL; more than one chunk of copies), then a force
      // that fails.
      for (int i = 6; i <= 4000; i++) {
        WriteRecord e = edit(1, i, rnd);
        wal.sync(wal.append(e), Durability.SYNC_WAL);
        written.add(e);
      }
      Fault fault = fs.inject(Fault.on(Error.FSYNC, Op.SYNC).paths("/wal/").nth(1));
      WriteRecord last = edit(1, 4001, rnd);
      wal.sync(wal.append(last), Durability.FSYNC_WAL);
      written.add(last);
      assertThat(fault.fired()).isEqualTo(1);
      assertThat(wal.filesFenced()).isEqualTo(1);
      assertThat(wal.failed()).isFalse();
      assertThat(wal.files()).hasSize(2);
      WriteRecord after = edit(1, 4002, rnd);
      wal.sync(wal.append(after), Durability.FSYNC_WAL);
      written.add(after);
    }
    // A power loss keeps what was forced: every edit, once, in order (the fenced file was cut at
    // its forced byte, so the rewritten edits are not met twice).
    assertThat(replay(disk.crash(seed.random(1), true))).as(seed.toString()).isEqualTo(flat(written));
  }

  @Test
  void aLogThatCannotHealRefusesAppendsUntilRecoverWorksAndLosesNothingItAcknowledged() {
    Random rnd = seed.random();
    List<WriteRecord> acknowledged = new ArrayList<>();
    try (Wal wal = Wal.open(fs, DIR, quiet())) {
      for (int i = 1; i <= 3; i++) {
        WriteRecord e = edit(1, i, rnd);
        wal.sync(wal.append(e), Durability.FSYNC_WAL);
        acknowledged.add(e);
      }
      Fault fault = fs.inject(Fault.on(Error.EIO, Op.WRITE).paths("/wal/"));
      WriteRecord failed = edit(1, 4, rnd);
      long txid = wal.append(failed);
      assertThatThrownBy(() -> wal.sync(txid, Durability.FSYNC_WAL)).isInstanceOf(StorageException.class)
          .hasMessageContaining("could not be healed");
      assertThat(wal.failed()).isTrue();
      assertThatThrownBy(() -> wal.append(edit(1, 5, rnd))).isInstanceOf(StorageException.class)
          .hasMessageContaining("resume()");
      assertThatThrownBy(wal::recover).isInstanceOf(StorageException.class).hasMessageContaining("still fails");
      fault.disable();
      wal.recover();
      assertThat(wal.failed()).isFalse();
      acknowledged.add(failed); // recover() rewrote and forced it
      wal.sync(txid, Durability.FSYNC_WAL); // covered now
      WriteRecord next = edit(1, 6, rnd);
      wal.sync(wal.append(next), Durability.FSYNC_WAL);
      acknowledged.add(next);
    }
    assertThat(replay(disk.crash(seed.random(1), true))).as(seed.toString()).isEqualTo(flat(acknowledged));
  }

  /**
   * The disk is full: the failed file cannot be rewritten anywhere, so the log fails, and the file
   * is left as it was: a restart (no power loss) reads every SYNC_WAL edit that reached it.
   */
  @Test
  void aLogThatCannotHealLeavesTheFailedFileWholeForARestart() {
    Random rnd = seed.random();
    List<WriteRecord> written = new ArrayList<>();
    try (Wal wal = Wal.open(fs, DIR, quiet())) {
      for (int i = 1; i <= 300; i++) {
        WriteRecord e = edit(1, i, rnd);
        wal.sync(wal.append(e), i % 100 == 0 ? Durability.FSYNC_WAL : Durability.SYNC_WAL);
        written.add(e);
      }
      fs.inject(Fault.on(Error.ENOSPC, Op.WRITE, Op.CREATE).paths("/wal/"));
      long txid = wal.append(edit(1, 301, rnd));
      assertThatThrownBy(() -> wal.sync(txid, Durability.FSYNC_WAL)).isInstanceOf(StorageException.class);
    } catch (StorageException closing) {
      // closing a failed log reports nothing more; the engine closes it the same way
    }
    fs.clear();
    List<WriteRecord> out = new ArrayList<>();
    try (Wal wal = Wal.open(disk, DIR, quiet())) {
      wal.replay(out::add);
    }
    assertThat(flat(out)).as(seed.toString()).startsWith(flat(written).toArray(new String[0]));
  }

  /**
   * A fenced file's tail is garbage (the write that failed tore it): replay reads it up to where the
   * next file's header says it was fenced and then that file; the same garbage in a file that was
   * not fenced is damage.
   */
  @Test
  void aFencedFilesGarbageTailIsNoDamageButTheSameTailUnfencedIs() throws Exception {
    Random rnd = seed.random();
    List<WriteRecord> written = new ArrayList<>();
    Path dir = tmp.resolve("wal");
    try (Wal wal = Wal.open(dir, quiet())) {
      for (int i = 1; i <= 20; i++) {
        WriteRecord e = edit(1, i, rnd);
        wal.sync(wal.append(e), Durability.FSYNC_WAL);
        written.add(e);
      }
    }
    Path first = WalTestSupport.walFiles(dir).get(0);
    long forcedEnd = java.nio.file.Files.size(first);
    byte[] garbage = new byte[300];
    rnd.nextBytes(garbage);
    java.nio.file.Files.write(first, garbage, java.nio.file.StandardOpenOption.APPEND);
    WriteRecord rewritten = edit(1, 21, rnd);
    byte[] record = WalFormat.encode(rewritten);
    byte[] next = new byte[WalFormat.HEADER_SIZE + record.length];
    System.arraycopy(WalFormat.header(2, forcedEnd), 0, next, 0, WalFormat.HEADER_SIZE);
    System.arraycopy(record, 0, next, WalFormat.HEADER_SIZE, record.length);
    Path second = dir.resolve(WalFormat.fileName(2));
    java.nio.file.Files.write(second, next);
    written.add(rewritten);
    assertThat(flat(WalTestSupport.reopenAndReplay(dir))).as(seed.toString()).isEqualTo(flat(written));

    System.arraycopy(WalFormat.header(2, -1), 0, next, 0, WalFormat.HEADER_SIZE);
    java.nio.file.Files.write(second, next);
    assertThatThrownBy(() -> WalTestSupport.reopenAndReplay(dir)).isInstanceOf(io.bellows.util.CorruptionException.class)
        .hasMessageContaining(first.getFileName().toString());
  }

  @Test
  void aFailedRollKeepsAppendingToTheCurrentFile() {
    Random rnd = new Random(7);
    List<WriteRecord> written = new ArrayList<>();
    try (Wal wal = Wal.open(fs, DIR, new WalOptions(4096, 3_600_000))) {
      WriteRecord first = edit(1, 1, rnd);
      wal.sync(wal.append(first), Durability.FSYNC_WAL);
      written.add(first);
      Fault fault = fs.inject(Fault.on(Error.EIO, Op.CREATE).paths("/wal/"));
      for (int i = 2; i < 200; i++) {
        WriteRecord e = edit(1, i, rnd);
        wal.sync(wal.append(e), Durability.FSYNC_WAL);
        written.add(e);
      }
      assertThat(fault.fired()).as("rolls were tried").isGreaterThanOrEqualTo(1);
      assertThat(wal.files()).hasSize(1);
      assertThat(wal.failed()).isFalse();
      fault.disable();
      for (int i = 200; i < 400; i++) {
        WriteRecord e = edit(1, i, rnd);
        wal.sync(wal.append(e), Durability.FSYNC_WAL);
        written.add(e);
      }
      assertThat(wal.files().size()).isGreaterThan(1);
    }
    assertThat(replay(disk.crash(new Random(7), true))).isEqualTo(flat(written));
  }

  /**
   * A writer interrupted while it writes the log (an interrupt closes a {@code FileChannel}): its
   * own sync still succeeds (the log heals if the channel was lost) and keeps its interrupt status;
   * other writers go on. On the real file system.
   */
  @Test
  void anInterruptedWriterDoesNotBreakTheLog() throws Exception {
    Path dir = tmp.resolve("wal");
    Random rnd = new Random(11);
    List<WriteRecord> written = new ArrayList<>();
    try (Wal wal = Wal.open(dir, quiet())) {
      for (int i = 1; i <= 50; i++) {
        WriteRecord e = edit(1, i, rnd);
        long txid = wal.append(e);
        written.add(e);
        if (i % 5 == 0) {
          Thread.currentThread().interrupt(); // set before the write: the channel's write sees it
        }
        wal.sync(txid, i % 2 == 0 ? Durability.FSYNC_WAL : Durability.SYNC_WAL);
        assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isEqualTo(i % 5 == 0);
      }
      Thread other = new Thread(() -> {
        for (int i = 51; i <= 60; i++) {
          WriteRecord e = edit(2, i, new Random(i));
          wal.sync(wal.append(e), Durability.FSYNC_WAL);
        }
      });
      other.start();
      other.join();
      for (int i = 51; i <= 60; i++) {
        written.add(edit(2, i, new Random(i)));
      }
      assertThat(wal.failed()).isFalse();
    }
    List<WriteRecord> out = new ArrayList<>();
    try (Wal wal = Wal.open(dir, quiet())) {
      wal.replay(out::add);
    }
    assertThat(flat(out)).isEqualTo(flat(written));
  }

  /**
   * A writer whose sync fails (an injected fsync error) and who is then interrupted at every file
   * operation of the heal that follows, as a caller interrupted again and again would be: the heal
   * still succeeds, the log never fails, the writer keeps its interrupt. A heal run on the caller's
   * own thread fails here (each interrupt closes the new file's channel). On the real file system.
   */
  @Test
  void aWriterInterruptedThroughoutTheHealDoesNotFailTheLog() throws Exception {
    Path dir = tmp.resolve("wal");
    FaultInjectingFileSystem local = new FaultInjectingFileSystem(LocalFileSystem.INSTANCE);
    Random rnd = seed.random();
    List<WriteRecord> written = new ArrayList<>();
    try (Wal wal = Wal.open(local, dir, quiet())) {
      for (int i = 1; i <= 5; i++) {
        WriteRecord e = edit(1, i, rnd);
        wal.sync(wal.append(e), Durability.FSYNC_WAL);
        written.add(e);
      }
      Thread writer = Thread.currentThread();
      Fault fsync = local.inject(Fault.on(Error.FSYNC, Op.SYNC).paths("wal-").nth(1));
      local.beforeEach((op, path) -> {
        if (fsync.fired() > 0) {
          writer.interrupt();
        }
      });
      WriteRecord e = edit(1, 6, rnd);
      wal.sync(wal.append(e), Durability.FSYNC_WAL);
      written.add(e);
      local.beforeEach((op, path) -> {});
      assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
      assertThat(fsync.fired()).isEqualTo(1);
      assertThat(wal.failed()).as("the log failed").isFalse();
      assertThat(wal.filesFenced()).isEqualTo(1);
      WriteRecord last = edit(1, 7, rnd);
      wal.sync(wal.append(last), Durability.FSYNC_WAL);
      written.add(last);
    }
    List<WriteRecord> out = new ArrayList<>();
    try (Wal wal = Wal.open(dir, quiet())) {
      wal.replay(out::add);
    }
    assertThat(flat(out)).isEqualTo(flat(written));
  }

  /**
   * A power loss at every file-system operation of a log that rolls every few edits (the new
   * file's creation, its header, its directory sync, the old file's last force): the reopened log
   * holds every edit that was acknowledged (FSYNC_WAL), in order, and at most the one in flight.
   */
  @Test
  void aPowerLossAtEveryStepOfARollLosesNoAcknowledgedEdit() {
    int cut = 0;
    for (int at = 0; ; at++) {
      MemFileSystem mem = new MemFileSystem();
      Random rnd = seed.random(at);
      List<WriteRecord> acknowledged = new ArrayList<>();
      WriteRecord inFlight = null;
      mem.crashAtOperation(at, seed.random(1000 + at), MemFileSystem.Tail.GARBAGE);
      try (Wal wal = Wal.open(mem, DIR, new WalOptions(1024, 3_600_000))) {
        for (int i = 1; i <= 40; i++) {
          inFlight = edit(1, i, rnd);
          wal.sync(wal.append(inFlight), Durability.FSYNC_WAL);
          acknowledged.add(inFlight);
          inFlight = null;
        }
      } catch (RuntimeException e) {
        if (mem.crashed() == null) {
          throw new AssertionError(seed + ": failed without a power loss at operation " + at, e);
        }
      }
      if (mem.crashed() == null) {
        assertThat(cut).as("operations cut").isGreaterThan(50);
        return;
      }
      cut++;
      List<String> replayed = replay(mem.crashed());
      List<String> want = flat(acknowledged);
      assertThat(replayed.subList(0, Math.min(replayed.size(), want.size()))).as("%s, power loss at %d", seed, at)
          .isEqualTo(want);
      assertThat(replayed.size()).as("%s, power loss at %d: only the edit in flight may follow", seed, at)
          .isLessThanOrEqualTo(want.size() + (inFlight == null ? 0 : 1));
    }
  }
}
