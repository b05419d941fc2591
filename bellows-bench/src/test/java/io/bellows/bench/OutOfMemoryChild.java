package io.bellows.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM for {@code PaperBenchTest}: one thread waits while the main thread fills the heap, as
 * an engine's background threads live on when a benchmark's client runs out of memory. The wait ends
 * after 5 minutes, so that a child the test gave up on does not outlive it for long.
 */
public final class OutOfMemoryChild {
  private OutOfMemoryChild() {}

  public static void main(String[] args) throws Exception {
    Thread alive = new Thread(() -> {
      try {
        new CountDownLatch(1).await(5, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "lives-on");
    alive.start();
    List<long[]> hold = new ArrayList<>();
    while (true) {
      hold.add(new long[1 << 16]);
    }
  }
}
