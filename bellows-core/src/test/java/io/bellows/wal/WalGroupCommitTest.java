package io.bellows.wal;

import static io.bellows.wal.WalTestSupport.edit;
import static io.bellows.wal.WalTestSupport.quiet;
import static io.bellows.wal.WalTestSupport.reopenAndReplay;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.config.Durability;
import io.bellows.record.WriteRecord;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(SeedExtension.class)
class WalGroupCommitTest {
  private static final int THREADS = 8;

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
}
