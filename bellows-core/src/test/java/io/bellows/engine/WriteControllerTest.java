package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Pacing near a limit: no delay outside the zone, a falling rate inside it, one shared schedule. */
class WriteControllerTest {
  private static final double MIB = 1024 * 1024;

  @Test
  void positionsRunFromTheZoneStartToTheLimit() {
    assertThat(WriteController.position(50, 60, 100)).isNegative();
    assertThat(WriteController.position(60, 60, 100)).isZero();
    assertThat(WriteController.position(80, 60, 100)).isEqualTo(0.5);
    assertThat(WriteController.position(120, 60, 100)).isGreaterThan(1);
    assertThat(WriteController.position(99, 100, 100)).as("an empty zone: a step").isZero();
    assertThat(WriteController.position(100, 100, 100)).isEqualTo(1);
  }

  @Test
  void theRateFallsAcrossTheZoneButNeverToZero() {
    WriteController c = new WriteController(64 * MIB);
    assertThat(c.allowedBytesPerSecond(0)).isEqualTo(64 * MIB);
    assertThat(c.allowedBytesPerSecond(0.5)).isEqualTo(32 * MIB);
    assertThat(c.allowedBytesPerSecond(0.99)).isEqualTo(1 * MIB, within(1.0));
    assertThat(c.allowedBytesPerSecond(5)).isEqualTo(1 * MIB);
  }

  @Test
  void outsideTheZoneNothingWaits() {
    WriteController c = new WriteController(MIB);
    assertThat(c.delayNanos(1 << 20, 0, 0)).isZero();
    assertThat(c.delayNanos(1 << 20, -3, 0)).isZero();
  }

  @Test
  void writesShareOneScheduleAtTheAllowedRate() {
    WriteController c = new WriteController(MIB); // at position 0.5: 512 KiB/s, 1 KiB = 1/512 s
    long slot = 1_000_000_000L / 512;
    long now = 5_000_000_000L;
    assertThat(c.delayNanos(1024, 0.5, now)).isEqualTo(slot);
    assertThat(c.delayNanos(1024, 0.5, now)).as("queued behind the first").isEqualTo(2 * slot);
    assertThat(c.delayNanos(1024, 0.5, now + 10 * slot)).as("an idle schedule banks no credit").isEqualTo(slot);
  }

  @Test
  void concurrentWritersGetDisjointSlots() throws InterruptedException {
    WriteController c = new WriteController(MIB);
    int threads = 4;
    int each = 1000;
    long now = 0;
    List<long[]> ends = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> ts = new ArrayList<>();
    AtomicLong total = new AtomicLong();
    for (int t = 0; t < threads; t++) {
      long[] mine = new long[each];
      ends.add(mine);
      Thread th = new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          throw new AssertionError(e);
        }
        for (int i = 0; i < each; i++) {
          mine[i] = c.delayNanos(100, 0.25, now);
          total.incrementAndGet();
        }
      });
      ts.add(th);
      th.start();
    }
    start.countDown();
    for (Thread th : ts) {
      th.join();
    }
    // Every slot is 100 B at 768 KiB/s; all slots together end exactly where n slots end.
    long slot = (long) Math.ceil(100 * 1e9 / (0.75 * MIB));
    long max = 0;
    java.util.Set<Long> seen = new java.util.HashSet<>();
    for (long[] mine : ends) {
      for (long e : mine) {
        assertThat(seen.add(e)).as("slot end %d handed out twice", e).isTrue();
        max = Math.max(max, e);
      }
    }
    assertThat(max).isEqualTo(slot * threads * each);
  }
}
