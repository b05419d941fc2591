package io.bellows.region;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.config.Durability;
import io.bellows.record.WriteRecord;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A writer whose write is complete but not yet visible (a write ahead of it is still in flight)
 * looks again a few times, spinning, before it waits on the monitor: a write ahead that
 * completes meanwhile, or that becomes logged and durable meanwhile, lets it return without the
 * wait. The looks are driven by the test ({@code Mvcc.spinHook}), so nothing depends on timing.
 */
class MvccLookAgainTest {
  /** Only a deadlock detector. */
  private static final Duration DEADLOCK = Duration.ofSeconds(30);

  /** A log that says every record is durable: what a sync that covered it would have made it. */
  private static final RegionLog DURABLE = new RegionLog() {
    @Override
    public long append(WriteRecord record) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void awaitDurable(long ticket, Durability durability) {
    }

    @Override
    public boolean isDurable(long ticket, Durability durability) {
      return true;
    }

    @Override
    public boolean failed() {
      return false;
    }

    @Override
    public void forceAppended() {
    }
  };

  @Test
  void aWriteAheadThatCompletesWhileTheWriterLooksAgainSparesItTheMonitorWait() {
    Mvcc mvcc = new Mvcc(SequenceIds.of(new AtomicLong()), 0, DURABLE);
    Mvcc.WriteEntry ahead = mvcc.begin();
    Mvcc.WriteEntry mine = mvcc.begin();
    AtomicInteger looks = new AtomicInteger();
    mvcc.spinHook(() -> {
      if (looks.incrementAndGet() == 1) {
        mvcc.complete(ahead); // its own thread ran on another core
      }
    });

    assertThat(CompletableFuture.supplyAsync(() -> mvcc.completeAndWait(mine))).succeedsWithin(DEADLOCK)
        .isEqualTo(true);

    assertThat(mvcc.readPoint()).isEqualTo(mine.seqId());
    assertThat(looks.get()).isEqualTo(1);
    assertThat(mvcc.waitsOnMonitor()).isZero();
  }

  @Test
  void aWriteAheadLoggedAndDurableWhileTheWriterLooksAgainIsCompletedByIt() {
    Mvcc mvcc = new Mvcc(SequenceIds.of(new AtomicLong()), 0, DURABLE);
    Mvcc.WriteEntry ahead = mvcc.begin();
    Mvcc.WriteEntry mine = mvcc.begin();
    AtomicInteger looks = new AtomicInteger();
    mvcc.spinHook(() -> {
      if (looks.incrementAndGet() == 1) {
        mvcc.logged(ahead, 7, Durability.SYNC_WAL); // its thread then waits for the log, or is not run
      }
    });

    assertThat(CompletableFuture.supplyAsync(() -> mvcc.completeAndWait(mine))).succeedsWithin(DEADLOCK)
        .isEqualTo(true);

    assertThat(mvcc.readPoint()).isEqualTo(mine.seqId());
    assertThat(mvcc.waitsOnMonitor()).isZero();
    assertThat(mvcc.oldestPendingSeqId()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void aWriteAheadStillInFlightAfterEveryLookIsWaitedForOnTheMonitor() {
    Mvcc mvcc = new Mvcc(SequenceIds.of(new AtomicLong()), 0, DURABLE);
    Mvcc.WriteEntry ahead = mvcc.begin();
    Mvcc.WriteEntry mine = mvcc.begin();
    AtomicInteger looks = new AtomicInteger();
    mvcc.spinHook(looks::incrementAndGet);

    CompletableFuture<Boolean> done = CompletableFuture.supplyAsync(() -> mvcc.completeAndWait(mine));
    // The writer waits on the monitor once it has looked every time; only then does the write ahead complete.
    long deadline = System.nanoTime() + DEADLOCK.toNanos();
    while (looks.get() < Mvcc.WAIT_SPINS || mvcc.waitsOnMonitor() == 0) {
      assertThat(done).isNotDone();
      assertThat(System.nanoTime() - deadline).as("the writer never waited").isNegative();
      Thread.onSpinWait();
    }
    mvcc.complete(ahead);

    assertThat(done).succeedsWithin(DEADLOCK).isEqualTo(true);
    assertThat(looks.get()).isEqualTo(Mvcc.WAIT_SPINS);
    assertThat(mvcc.waitsOnMonitor()).isEqualTo(1);
  }

  @Test
  void aWriteVisibleAtOnceNeitherLooksAgainNorWaits() {
    Mvcc mvcc = new Mvcc(SequenceIds.of(new AtomicLong()), 0, DURABLE);
    AtomicInteger looks = new AtomicInteger();
    mvcc.spinHook(looks::incrementAndGet);

    assertThat(mvcc.completeAndWait(mvcc.begin())).isTrue();

    assertThat(looks.get()).isZero();
    assertThat(mvcc.waitsOnMonitor()).isZero();
  }
}
