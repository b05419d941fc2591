package io.bellows.region;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SeedExtension.class)
class ReadPointsTest {

  @Test
  void theSmallestIsTheOldestOpenReadersReadPointElseTheCurrentOne() {
    AtomicLong current = new AtomicLong(5);
    ReadPoints points = new ReadPoints(current::get);
    assertThat(points.smallest()).isEqualTo(5);
    ReadPoints.Reader a = points.open();
    current.set(9);
    ReadPoints.Reader b = points.open();
    assertThat(a.readPoint()).isEqualTo(5);
    assertThat(b.readPoint()).isEqualTo(9);
    assertThat(points.smallest()).isEqualTo(5);
    points.close(a);
    current.set(12);
    assertThat(points.smallest()).isEqualTo(9);
    points.close(b);
    assertThat(points.smallest()).isEqualTo(12);
    assertThat(points.openCount()).isZero();
  }

  /**
   * A reader that has registered but not yet read the current read point may end up with an older
   * one than the bound's: the bound waits for it. The reader here is held inside its read of the
   * current read point (which returns an old value) until the bound's thread has found it pending.
   */
  @Test
  void theSmallestWaitsForAReaderBetweenRegisteringAndTakingItsReadPoint() throws Exception {
    CountDownLatch readerInside = new CountDownLatch(1);
    CountDownLatch letReaderGo = new CountDownLatch(1);
    Thread[] readerThread = new Thread[1];
    ReadPoints points = new ReadPoints(() -> {
      if (Thread.currentThread() != readerThread[0]) {
        return 10;
      }
      readerInside.countDown();
      await(letReaderGo);
      return 3; // read before the bound's thread read 10, in effect
    });
    CompletableFuture<ReadPoints.Reader> reader = new CompletableFuture<>();
    readerThread[0] = new Thread(() -> reader.complete(points.open()), "reader");
    readerThread[0].setDaemon(true); // not left behind if the bound fails to wait
    readerThread[0].start();
    readerInside.await();
    points.pendingHook(letReaderGo::countDown);
    CompletableFuture<Long> bound = CompletableFuture.supplyAsync(points::smallest);
    assertThat(bound.get()).isEqualTo(3);
    assertThat(reader.get().readPoint()).isEqualTo(3);
  }

  /**
   * Readers open and close on four threads while the read point advances and a fifth thread asks
   * for the bound again and again. Every reader still open when a bound's computation ended (it
   * began to close after that) must have a read point at least that bound, whenever it opened: the
   * rewrite that asked may now drop what only older read points see.
   */
  @Test
  void noReaderOpenDuringOrAfterABoundIsBelowIt(Seed seed) throws Exception {
    AtomicLong current = new AtomicLong();
    AtomicLong clock = new AtomicLong(); // orders the events of every thread
    // Yields around the read of the current read point widen the windows between it and the
    // registration (or the look at the registered readers) that the order of the two steps is for.
    ReadPoints points = new ReadPoints(() -> {
      yieldSometimes();
      long rp = current.get();
      yieldSometimes();
      return rp;
    });
    int readers = 4;
    int opens = 100_000;
    int bounds = 100_000;
    List<List<long[]>> readerSpans = new ArrayList<>(); // {began to open, opened, began to close, read point}
    List<long[]> boundSpans = new ArrayList<>(); // {began, ended, bound}
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < readers; t++) {
      List<long[]> spans = new ArrayList<>();
      readerSpans.add(spans);
      Random rnd = seed.random(t);
      threads.add(new Thread(() -> {
        for (int i = 0; i < opens; i++) {
          long began = clock.incrementAndGet();
          ReadPoints.Reader r = points.open();
          long opened = clock.incrementAndGet();
          if (rnd.nextInt(4) == 0) {
            current.incrementAndGet(); // a write completes meanwhile
          }
          if (rnd.nextInt(4) == 0) {
            Thread.yield(); // a reader stays open a while
          }
          long closing = clock.incrementAndGet();
          points.close(r);
          spans.add(new long[] {began, opened, closing, r.readPoint()});
        }
      }, "reader-" + t));
    }
    threads.add(new Thread(() -> {
      for (int i = 0; i < bounds; i++) {
        long began = clock.incrementAndGet();
        long bound = points.smallest();
        boundSpans.add(new long[] {began, clock.incrementAndGet(), bound});
      }
    }, "rewrite"));
    threads.forEach(th -> th.setUncaughtExceptionHandler((x, e) -> failure.compareAndSet(null, e)));
    threads.forEach(Thread::start);
    for (Thread th : threads) {
      th.join();
    }
    assertThat(failure.get()).as("seed %d", seed.value()).isNull();
    // For each bound, the smallest read point of the readers that began to close after it ended.
    long[][] byClosing = readerSpans.stream().flatMap(List::stream).sorted((x, y) -> Long.compare(x[2], y[2]))
        .toArray(long[][]::new);
    long[] smallestFrom = new long[byClosing.length + 1];
    smallestFrom[byClosing.length] = Long.MAX_VALUE;
    for (int i = byClosing.length - 1; i >= 0; i--) {
      smallestFrom[i] = Math.min(smallestFrom[i + 1], byClosing[i][3]);
    }
    for (long[] b : boundSpans) {
      int first = firstClosingAfter(byClosing, b[1]);
      assertThat(smallestFrom[first]).as("seed %d: a reader still open after the bound %d (events %d-%d) has "
          + "read point %d", seed.value(), b[2], b[0], b[1], smallestFrom[first]).isGreaterThanOrEqualTo(b[2]);
    }
    assertThat(points.openCount()).isZero();
    assertThat(points.smallest()).isEqualTo(current.get());
  }

  /** The index of the first reader (sorted by when it began to close) that began after {@code event}. */
  private static int firstClosingAfter(long[][] byClosing, long event) {
    int lo = 0;
    int hi = byClosing.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (byClosing[mid][2] > event) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  private static void yieldSometimes() {
    if (java.util.concurrent.ThreadLocalRandom.current().nextInt(8) == 0) {
      Thread.yield();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
