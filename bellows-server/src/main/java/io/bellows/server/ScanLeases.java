package io.bellows.server;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The open scans and their leases: a scan waiting for its client to read (its flow-control window
 * full) holds a call slot, a thread's worth of memory and the engine's files; if the client does not
 * read for {@code leaseMillis}, the lease expires and the scan is ended. Thread-safe.
 */
final class ScanLeases implements AutoCloseable {
  private final long leaseMillis;
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicLong expired = new AtomicLong();
  private final ScheduledThreadPoolExecutor timer;

  ScanLeases(long leaseMillis) {
    this.leaseMillis = leaseMillis;
    this.timer = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "bellows-scan-leases");
      t.setDaemon(true);
      return t;
    });
    timer.setRemoveOnCancelPolicy(true);
  }

  long leaseMillis() {
    return leaseMillis;
  }

  int open() {
    return open.get();
  }

  /** Leases that expired since start: scans the server ended because their client did not read. */
  long expired() {
    return expired.get();
  }

  /** A lease for a new scan; {@code onExpiry} runs (on the lease thread) if it waits too long. */
  Lease lease(Runnable onExpiry) {
    open.incrementAndGet();
    return new Lease(onExpiry);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }

  /** One scan's lease. Called under the scan's lock. */
  final class Lease {
    private final Runnable onExpiry;
    private ScheduledFuture<?> expiry;
    private boolean ended;

    private Lease(Runnable onExpiry) {
      this.onExpiry = onExpiry;
    }

    /** The scan waits for its client: the lease runs from now. */
    void waiting() {
      if (!ended && expiry == null && !timer.isShutdown()) {
        expiry = timer.schedule(() -> {
          expired.incrementAndGet();
          onExpiry.run();
        }, leaseMillis, TimeUnit.MILLISECONDS);
      }
    }

    /** The client read: the lease stops running. */
    void reading() {
      if (expiry != null) {
        expiry.cancel(false);
        expiry = null;
      }
    }

    /** The scan ended. */
    void end() {
      if (!ended) {
        ended = true;
        reading();
        open.decrementAndGet();
      }
    }
  }
}
