package io.bellows.memstore;

import static io.bellows.memstore.MemStoreFixtures.cell;
import static io.bellows.memstore.MemStoreFixtures.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.scan.RetentionFilter;
import io.bellows.config.MemStorePolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A disk flush (snapshot) that overtakes a running in-memory compaction makes the compaction abort. */
class PipelineRaceTest {
  @Test
  void snapshotDuringCompactionAbortsItWithoutLossOrDuplicates() throws Exception {
    CountDownLatch compactionStarted = new CountDownLatch(1);
    CountDownLatch snapshotTaken = new CountDownLatch(1);
    CountDownLatch roundDone = new CountDownLatch(1);
    // The compaction's filter parks on its first cell until the test has taken the snapshot.
    RetentionFilter blocking = c -> {
      compactionStarted.countDown();
      try {
        snapshotTaken.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return true;
    };
    ExecutorService bg = Executors.newSingleThreadExecutor();
    MemStoreContext.Listener listener = new MemStoreContext.Listener() {
      @Override
      public void inMemoryCompactionDone() {
        roundDone.countDown();
      }
    };
    MemStoreContext ctx = MemStoreFixtures.context(
        MemStoreFixtures.family(MemStorePolicy.EAGER, 0.5, 4, 0.2), 2_000, bg, () -> blocking, listener);
    CompactingMemStore ms = new CompactingMemStore(ctx, () -> 0.0);
    List<Cell> added = new ArrayList<>();
    long seq = 1;
    while (ms.metrics().get("memstore.in.memory.flushes").longValue() == 0) {
      Cell c = cell("r" + seq, "q", 1, seq++);
      ms.add(c);
      added.add(c);
    }
    assertThat(compactionStarted.await(10, TimeUnit.SECONDS)).isTrue();
    Cell late = cell("late", "q", 1, seq++);
    ms.add(late);
    added.add(late);

    FlushSnapshot snap = ms.snapshot();
    snapshotTaken.countDown();
    assertThat(roundDone.await(10, TimeUnit.SECONDS)).isTrue();
    bg.shutdown();
    assertThat(bg.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

    java.util.Map<String, Number> m = ms.metrics();
    assertThat(((Number) m.get("memstore.compactions.aborted")).longValue()).isEqualTo(1);
    assertThat(((Number) m.get("memstore.compactions")).longValue()).isZero();
    assertThat(((Number) m.get("memstore.pipeline.segments")).intValue()).isZero();
    // Every cell exactly once in the snapshot, nothing left behind in memory.
    assertThat(MemStoreFixtures.countAll(snap.scanner())).isEqualTo(added.size());
    assertThat(readAll(List.of(snap.scanner()))).containsExactlyInAnyOrderElementsOf(added);
    assertThat(readAll(ms.scanners())).containsExactlyInAnyOrderElementsOf(added);
    ms.releaseSnapshot(snap);
    assertThat(readAll(ms.scanners())).isEmpty();
    assertThat(ms.size()).isEqualTo(MemStoreSize.EMPTY);
    ms.close();
  }

}
