package io.bellows.region;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The read points of a region's open readers. Flushes and compactions may drop a cell only if no
 * reader can still see it, so they ask for the {@link #smallest} read point in use; every get and
 * scan registers, so registering takes no lock.
 *
 * <p>The rule both sides keep: a reader registers <em>before</em> it reads the current read point,
 * and {@link #smallest} reads the current read point <em>before</em> it looks at the registered
 * readers. A reader that {@code smallest} does not see registered after it began, so its read
 * point, read later still, is at least the one {@code smallest} started from (read points only
 * grow); a reader it sees but whose read point is not set yet is waited for (a few instructions,
 * unless that thread is descheduled), since its read point may be older.
 *
 * <p>Why not a monitor: one around a sorted map of read points made every get take it twice, and
 * with more reader threads than cores a holder preempted inside it kept the others waiting a
 * scheduler slice (docs/bench/log/2026-11-29-l2-lock-free-reads.md).
 */
final class ReadPoints {
  /** A registered reader whose read point is not set yet: no read point is negative, let alone this. */
  private static final long PENDING = Long.MIN_VALUE;

  private final LongSupplier currentReadPoint;
  private final Set<Reader> open = ConcurrentHashMap.newKeySet();
  /** Runs each time {@link #smallest} finds a reader whose read point is not set yet (for tests). */
  private volatile Runnable pendingHook = () -> { };

  /** @param currentReadPoint the region's current read point, which never decreases */
  ReadPoints(LongSupplier currentReadPoint) {
    this.currentReadPoint = currentReadPoint;
  }

  /** One open reader's registration: close it with {@link #close} once. */
  static final class Reader {
    private volatile long readPoint = PENDING;

    long readPoint() {
      return readPoint;
    }
  }

  /** Registers a reader at the current read point. */
  Reader open() {
    Reader r = new Reader();
    open.add(r); // first registered, then the read point: see the class comment
    r.readPoint = currentReadPoint.getAsLong();
    return r;
  }

  void close(Reader r) {
    open.remove(r);
  }

  /** The smallest read point any current or future reader can have. */
  long smallest() {
    long smallest = currentReadPoint.getAsLong();
    for (Reader r : open) {
      long rp = r.readPoint;
      if (rp == PENDING) {
        pendingHook.run();
      }
      for (int spins = 0; rp == PENDING; spins++) {
        if (spins < 100) {
          Thread.onSpinWait();
        } else {
          Thread.yield(); // its thread was descheduled between the two steps of open()
        }
        rp = r.readPoint;
      }
      smallest = Math.min(smallest, rp);
    }
    return smallest;
  }

  void pendingHook(Runnable hook) {
    this.pendingHook = hook;
  }

  /** Readers registered now (for tests). */
  int openCount() {
    return open.size();
  }
}
