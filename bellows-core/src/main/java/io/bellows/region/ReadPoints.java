package io.bellows.region;

import java.util.TreeMap;

/**
 * The read points of a region's open readers. Flushes and compactions may drop a cell only if no
 * reader can still see it, so they ask for the {@link #smallest} read point in use. Registering a
 * reader and computing the smallest are done under one monitor: a reader that registers after a
 * rewrite computed its bound has a read point at least that bound.
 */
final class ReadPoints {
  private final Mvcc mvcc;
  private final TreeMap<Long, Integer> open = new TreeMap<>();

  ReadPoints(Mvcc mvcc) {
    this.mvcc = mvcc;
  }

  /** Registers a reader at the current read point and returns that read point. */
  synchronized long open() {
    long rp = mvcc.readPoint();
    open.merge(rp, 1, Integer::sum);
    return rp;
  }

  synchronized void close(long rp) {
    open.computeIfPresent(rp, (k, n) -> n == 1 ? null : n - 1);
  }

  /** The smallest read point any current or future reader can have. */
  synchronized long smallest() {
    long rp = mvcc.readPoint();
    return open.isEmpty() ? rp : Math.min(rp, open.firstKey());
  }
}
