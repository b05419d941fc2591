package io.bellows.wal;

import static io.bellows.wal.WalTestSupport.edit;
import static io.bellows.wal.WalTestSupport.flat;
import static io.bellows.wal.WalTestSupport.replayAll;
import static io.bellows.wal.WalTestSupport.quiet;
import static io.bellows.wal.WalTestSupport.reopenAndReplay;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.config.Durability;
import io.bellows.fs.Fault;
import io.bellows.fs.FaultInjectingFileSystem;
import io.bellows.fs.FaultInjectingFileSystem.Op;
import io.bellows.fs.MemFileSystem;
import io.bellows.record.WriteRecord;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(SeedExtension.class)
class WalGroupCommitTest {
  private static final int THREADS = 8;
  /** Only a deadlock detector: no wait in these tests is meant to come near it. */
  private static final long DEADLOCK_SECONDS = 30;

  @TempDir Path dir;

  /**
   * Every thread appends, all meet at a barrier, then all sync with FSYNC_WAL. The first syncer
   * takes every append of the round, so each round costs exactly one force however the threads are
   * scheduled.
   */
  @Test
  void concurrentFsyncCallersShareOneForcePerRound() throws Exception {
    int rounds = 25;
    CyclicBarrier appended = new CyclicBarrier(THREADS);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try (Wal wal = Wal.open(dir, quiet())) {
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        fs.add(pool.submit(() -> {
          for (int r = 0; r < rounds; r++) {
            long txid = wal.append(edit(thread, (long) r * THREADS + thread, "row" + thread, "round" + r));
            appended.await();
            wal.sync(txid, Durability.FSYNC_WAL);
            assertThat(wal.forcedTxid()).isGreaterThanOrEqualTo(txid);
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
      assertThat(wal.recordsAppended()).isEqualTo((long) rounds * THREADS);
      assertThat(wal.forces()).isEqualTo(rounds).isLessThan(wal.recordsAppended());
    } finally {
      pool.shutdownNow();
    }
    assertThat(reopenAndReplay(dir)).hasSize(rounds * THREADS);
  }

  /**
   * Free-running writers with mixed durabilities and a small roll size: every acknowledged edit is
   * replayed, each writer's edits in its own call order, and no more forces than appends happen.
   */
  @Test
  void freeRunningWritersGetEverythingBackInTheirOwnOrder(Seed seed) throws Exception {
    int perThread = 300;
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    Durability[] modes = {Durability.FSYNC_WAL, Durability.SYNC_WAL, Durability.ASYNC_WAL};
    try (Wal wal = Wal.open(dir, new WalOptions(8 * 1024, 3_600_000))) {
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        Random rnd = seed.random(t);
        fs.add(pool.submit(() -> {
          for (int i = 0; i < perThread; i++) {
            long txid = wal.append(edit(thread, ((long) thread << 32) + i, rnd));
            wal.sync(txid, modes[i % modes.length]);
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
      assertThat(wal.forces()).isLessThanOrEqualTo(wal.recordsAppended());
      assertThat(wal.filesRolled()).isPositive();
    } finally {
      pool.shutdownNow();
    }
    List<WriteRecord> replayed = reopenAndReplay(dir);
    assertThat(replayed).hasSize(THREADS * perThread);
    Map<Integer, Long> lastSeq = new HashMap<>();
    for (WriteRecord e : replayed) {
      long prev = lastSeq.getOrDefault(e.regionId(), -1L);
      assertThat(e.seqId()).as("writer %d order", e.regionId()).isGreaterThan(prev);
      lastSeq.put(e.regionId(), e.seqId());
    }
    assertThat(lastSeq).hasSize(THREADS);
  }

  /**
   * A leader's write covers two callers that called sync while it was writing; a third caller,
   * whose record came after the leader took the buffer, asked first and leads the next write, which
   * blocks. The two covered callers must return without waiting for that second write: queued on
   * the I/O lock behind the next leader, they would wait for its I/O too (two writes for one done).
   */
  @Test
  void callersTheLeadersWriteCoveredDoNotWaitForTheNextLeader() throws Exception {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new MemFileSystem());
    try (Wal wal = Wal.open(fs, Path.of("/wal"), quiet())) {
      wal.sync(wal.append(edit(9, 1, "first", "file")), Durability.SYNC_WAL); // the file and its header exist
      long syncsBefore = wal.syncs();
      CountDownLatch firstWriteEntered = new CountDownLatch(1);
      CountDownLatch releaseFirst = new CountDownLatch(1);
      CountDownLatch secondWriteEntered = new CountDownLatch(1);
      CountDownLatch releaseSecond = new CountDownLatch(1);
      AtomicInteger writes = new AtomicInteger();
      fs.beforeEach((op, path) -> {
        if (op == Op.WRITE) {
          int n = writes.incrementAndGet();
          if (n == 1) {
            firstWriteEntered.countDown();
            await(releaseFirst);
          } else if (n == 2) {
            secondWriteEntered.countDown();
            await(releaseSecond);
          }
        }
      });
      long coveredA = wal.append(edit(1, 2, "a", "covered"));
      long coveredB = wal.append(edit(2, 3, "b", "covered"));
      Caller leader = new Caller("leader", () -> wal.sync(wal.append(edit(3, 4, "c", "leads")), Durability.SYNC_WAL));
      assertThat(firstWriteEntered.await(DEADLOCK_SECONDS, TimeUnit.SECONDS)).isTrue();
      Caller next = new Caller("next-leader", () -> wal.sync(wal.append(edit(4, 5, "d", "next")), Durability.SYNC_WAL));
      next.awaitWaiting();
      Caller a = new Caller("covered-a", () -> wal.sync(coveredA, Durability.SYNC_WAL));
      Caller b = new Caller("covered-b", () -> wal.sync(coveredB, Durability.SYNC_WAL));
      a.awaitWaiting();
      b.awaitWaiting();

      releaseFirst.countDown();
      assertThat(leader.done).succeedsWithin(Duration.ofSeconds(DEADLOCK_SECONDS));
      assertThat(a.done).as("covered by the first write").succeedsWithin(Duration.ofSeconds(DEADLOCK_SECONDS));
      assertThat(b.done).as("covered by the first write").succeedsWithin(Duration.ofSeconds(DEADLOCK_SECONDS));
      assertThat(secondWriteEntered.await(DEADLOCK_SECONDS, TimeUnit.SECONDS)).isTrue();
      assertThat(next.done).isNotDone();

      releaseSecond.countDown();
      assertThat(next.done).succeedsWithin(Duration.ofSeconds(DEADLOCK_SECONDS));
      assertThat(writes.get()).isEqualTo(2);
      assertThat(wal.syncs() - syncsBefore).isEqualTo(2);
    }
  }

  /**
   * A caller that finds the I/O lock held by a leader whose write takes its record looks again
   * before it parks: once the write is done it returns without parking (a parked caller would run
   * again only when the scheduler picks it). The test lets the leader's write finish during the
   * caller's first look ({@code Wal.spinHook}), so nothing depends on timing.
   */
  @Test
  void aCallerTheLeadersWriteCoversWhileItLooksAgainDoesNotPark() throws Exception {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new MemFileSystem());
    try (Wal wal = Wal.open(fs, Path.of("/wal"), quiet())) {
      wal.sync(wal.append(edit(9, 1, "first", "file")), Durability.SYNC_WAL);
      CountDownLatch writeEntered = new CountDownLatch(1);
      CountDownLatch releaseWrite = new CountDownLatch(1);
      AtomicInteger writes = new AtomicInteger();
      fs.beforeEach((op, path) -> {
        if (op == Op.WRITE && writes.incrementAndGet() == 1) {
          writeEntered.countDown();
          await(releaseWrite);
        }
      });
      long covered = wal.append(edit(1, 2, "a", "covered"));
      Caller leader = new Caller("leader", () -> wal.sync(wal.append(edit(2, 3, "b", "leads")), Durability.SYNC_WAL));
      assertThat(writeEntered.await(DEADLOCK_SECONDS, TimeUnit.SECONDS)).isTrue();
      AtomicInteger looks = new AtomicInteger();
      wal.spinHook(() -> {
        if (looks.incrementAndGet() == 1) {
          releaseWrite.countDown(); // the leader's write returns while this caller looks again
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLOCK_SECONDS);
          while (wal.writtenTxid() < covered && System.nanoTime() < deadline) {
            Thread.onSpinWait();
          }
        }
      });

      wal.sync(covered, Durability.SYNC_WAL);

      assertThat(looks.get()).isEqualTo(1);
      assertThat(wal.syncWaitsParked()).isZero();
      assertThat(leader.done).succeedsWithin(Duration.ofSeconds(DEADLOCK_SECONDS));
      assertThat(writes.get()).isEqualTo(1);
    }
  }

  /**
   * A force of the log (FSYNC_WAL, a flush's, the background thread's) does not hold the I/O lock
   * while the file is forced: a SYNC_WAL caller that comes meanwhile writes its record and returns
   * with the force still in progress. Then a force of the later record drops only the copies the
   * first force did not cover, and every record comes back.
   */
  @Test
  void syncWalCallersWriteWhileTheLogIsForced() throws Exception {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new MemFileSystem());
    Path walDir = Path.of("/wal");
    try (Wal wal = Wal.open(fs, walDir, quiet())) {
      wal.sync(wal.append(edit(9, 1, "first", "file")), Durability.SYNC_WAL);
      CountDownLatch forceEntered = new CountDownLatch(1);
      CountDownLatch releaseForce = new CountDownLatch(1);
      AtomicInteger forces = new AtomicInteger();
      fs.beforeEach((op, path) -> {
        if (op == Op.SYNC && forces.incrementAndGet() == 1) {
          forceEntered.countDown();
          await(releaseForce);
        }
      });
      long forcesBefore = wal.forces();
      long forced = wal.append(edit(1, 2, "a", "forced"));
      Caller forcer = new Caller("forcer", () -> wal.sync(forced, Durability.FSYNC_WAL));
      assertThat(forceEntered.await(DEADLOCK_SECONDS, TimeUnit.SECONDS)).isTrue();

      long written = wal.append(edit(2, 3, "b", "written during the force"));
      Caller writer = new Caller("writer", () -> wal.sync(written, Durability.SYNC_WAL));
      assertThat(writer.done).as("not held up by the force").succeedsWithin(Duration.ofSeconds(DEADLOCK_SECONDS));
      assertThat(wal.writtenTxid()).isGreaterThanOrEqualTo(written);
      assertThat(forcer.done).isNotDone();
      assertThat(wal.forcedTxid()).isLessThan(forced);

      releaseForce.countDown();
      assertThat(forcer.done).succeedsWithin(Duration.ofSeconds(DEADLOCK_SECONDS));
      assertThat(wal.forcedTxid()).isGreaterThanOrEqualTo(forced).isLessThan(written);
      wal.sync(written, Durability.FSYNC_WAL);
      assertThat(wal.forcedTxid()).isEqualTo(written);
      assertThat(wal.forces() - forcesBefore).isEqualTo(2);
    }
    try (Wal wal = Wal.open(fs.inner(), walDir, quiet())) {
      assertThat(flat(replayAll(wal))).containsExactly(flat(edit(9, 1, "first", "file")),
          flat(edit(1, 2, "a", "forced")), flat(edit(2, 3, "b", "written during the force")));
    }
  }

  /**
   * A force that fails while a SYNC_WAL record was written beside it heals the log as a failed
   * write does: both records, the one being forced and the one written meanwhile, are rewritten to
   * a new file and forced there; both callers are acknowledged and both records come back.
   */
  @Test
  void aForceThatFailsWhileOthersWriteHealsEverythingUnforced() throws Exception {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new MemFileSystem());
    Path walDir = Path.of("/wal");
    try (Wal wal = Wal.open(fs, walDir, quiet())) {
      wal.sync(wal.append(edit(9, 1, "first", "file")), Durability.SYNC_WAL);
      CountDownLatch forceEntered = new CountDownLatch(1);
      CountDownLatch releaseForce = new CountDownLatch(1);
      AtomicInteger forces = new AtomicInteger();
      fs.beforeEach((op, path) -> {
        if (op == Op.SYNC && forces.incrementAndGet() == 1) {
          forceEntered.countDown();
          await(releaseForce);
        }
      });
      fs.inject(Fault.on(FaultInjectingFileSystem.Error.FSYNC, Op.SYNC).nth(1)); // fires once the force goes on
      long forced = wal.append(edit(1, 2, "a", "forced"));
      Caller forcer = new Caller("forcer", () -> wal.sync(forced, Durability.FSYNC_WAL));
      assertThat(forceEntered.await(DEADLOCK_SECONDS, TimeUnit.SECONDS)).isTrue();
      long written = wal.append(edit(2, 3, "b", "written during the force"));
      wal.sync(written, Durability.SYNC_WAL);

      releaseForce.countDown();
      assertThat(forcer.done).succeedsWithin(Duration.ofSeconds(DEADLOCK_SECONDS));
      assertThat(fs.injected(Op.SYNC)).isEqualTo(1);
      assertThat(wal.filesFenced()).isEqualTo(1);
      assertThat(wal.failed()).isFalse();
      assertThat(wal.forcedTxid()).isEqualTo(written);
    }
    try (Wal wal = Wal.open(fs.inner(), walDir, quiet())) {
      assertThat(flat(replayAll(wal))).containsExactly(flat(edit(9, 1, "first", "file")),
          flat(edit(1, 2, "a", "forced")), flat(edit(2, 3, "b", "written during the force")));
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(DEADLOCK_SECONDS, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never released a write");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A thread making one call, its outcome in {@code done}. */
  private static final class Caller {
    final CompletableFuture<Void> done = new CompletableFuture<>();
    final Thread thread;

    Caller(String name, Runnable call) {
      thread = new Thread(() -> {
        try {
          call.run();
          done.complete(null);
        } catch (Throwable t) {
          done.completeExceptionally(t);
        }
      }, name);
      thread.setDaemon(true);
      thread.start();
    }

    /** Returns once the call is parked (waiting for the I/O lock or its holder). */
    void awaitWaiting() {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLOCK_SECONDS);
      while (thread.getState() != Thread.State.WAITING) {
        assertThat(done).as(thread.getName() + " returned instead of waiting").isNotDone();
        assertThat(System.nanoTime() - deadline).as(thread.getName() + " never waited").isNegative();
        Thread.onSpinWait();
      }
    }
  }
}
