package io.bellows.memstore;

import static io.bellows.memstore.MemStoreFixtures.cell;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.config.MemStorePolicy;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A snapshot that races the installation of an in-memory compaction which dropped cells (EAGER over
 * overwritten rows). The compaction's result replacing its input and its charge to the accounting
 * must look like one step to a snapshot: when a snapshot could be taken and released between them,
 * the charge applied afterwards left the store counting the cells the compaction dropped although
 * it held none, and a close (which flushes until the count is zero) failed.
 */
class InstallAccountingRaceTest {
  @Test
  void aSnapshotTakenWhileACompactionIsReplacingItsInputLeavesNothingCounted() throws Exception {
    CountDownLatch replacing = new CountDownLatch(1);
    CountDownLatch resume = new CountDownLatch(1);
    MemStoreContext.Listener pauseOnce = new MemStoreContext.Listener() {
      @Override
      public void compactionReplacing() {
        if (replacing.getCount() > 0) {
          replacing.countDown();
          await(resume);
        }
      }
    };
    ExecutorService bg = Executors.newSingleThreadExecutor();
    try {
      MemStoreContext ctx = MemStoreFixtures.context(MemStoreFixtures.family(MemStorePolicy.EAGER, 0.5, 1, 0.2),
          8 * 1024, bg, MemStoreFixtures::newestOnly, pauseOnce);
      CompactingMemStore ms = new CompactingMemStore(ctx, () -> 0.0);
      long seq = 1;
      while (replacing.getCount() > 0) { // versions of a few rows until a compaction replaces its input
        ms.add(cell("r" + seq % 5, "q", seq, seq));
        seq++;
        if (ms.metrics().get("memstore.in.memory.flushes").longValue() > 0) {
          assertThat(replacing.await(10, TimeUnit.SECONDS)).isTrue();
        }
      }
      AtomicLong countedAfter = new AtomicLong(-1);
      Thread flusher = new Thread(() -> {
        FlushSnapshot snap = ms.snapshot();
        ms.releaseSnapshot(snap);
        countedAfter.set(ms.size().cellCount());
      });
      flusher.start();
      // Until the snapshot waits for the compaction or, were the two steps apart, has been released.
      while (flusher.getState() != Thread.State.WAITING && flusher.getState() != Thread.State.TERMINATED) {
        Thread.onSpinWait();
      }
      resume.countDown();
      flusher.join();
      assertThat(countedAfter.get()).as("cells counted once a snapshot with no writer was released").isZero();
      ms.close();
      assertThat(ms.size()).isEqualTo(MemStoreSize.EMPTY);
    } finally {
      resume.countDown();
      bg.shutdown();
      assertThat(bg.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
