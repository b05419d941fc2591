package io.bellows.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The engine-wide memory-store budget, as a region server has one: all memory stores together may
 * hold {@code limit} bytes. Above the lower mark the engine flushes the regions holding the most
 * memory until the projected use is under it again; between the lower mark and the limit writes
 * are paced ({@link WriteController}); at the limit they wait until flushes free memory.
 *
 * <p>Use is the sum of every memory store's footprint, measured by the engine. Summing on every
 * write would cost a pass over all stores, so the sum is cached and measured again only when it is
 * older than {@code refreshNanos}; a write sees use at most that stale, which the gap between the
 * lower mark and the limit absorbs. Thread-safe.
 */
final class MemoryBudget {
  private final long limit;
  private final long lowerMark;
  private final LongSupplier measure;
  private final long refreshNanos;
  private volatile long cachedUse;
  private volatile long measuredAt;
  private volatile boolean measured;

  /**
   * @param limit bytes at which writes wait
   * @param lowerMarkFraction the fraction of {@code limit} above which flushes are forced
   * @param measure the current total footprint of all memory stores
   * @param refreshNanos how old a measurement may be before the next one
   */
  MemoryBudget(long limit, double lowerMarkFraction, LongSupplier measure, long refreshNanos) {
    if (limit <= 0 || !(lowerMarkFraction > 0 && lowerMarkFraction <= 1)) {
      throw new IllegalArgumentException("bad memory budget: " + limit + " bytes, lower mark " + lowerMarkFraction);
    }
    this.limit = limit;
    this.lowerMark = (long) (limit * lowerMarkFraction);
    this.measure = measure;
    this.refreshNanos = refreshNanos;
  }

  long limit() {
    return limit;
  }

  long lowerMark() {
    return lowerMark;
  }

  /** Total memory-store use, measured at most {@code refreshNanos} before {@code nowNanos}. */
  long use(long nowNanos) {
    if (!measured || nowNanos - measuredAt >= refreshNanos) {
      cachedUse = measure.getAsLong();
      measuredAt = nowNanos;
      measured = true; // written last: a reader that sees it true sees the values above
    }
    return cachedUse;
  }

  /** Measures now, whatever the age of the last measurement (after a flush freed memory). */
  long remeasure(long nowNanos) {
    measured = false;
    return use(nowNanos);
  }

  boolean aboveLowerMark(long use) {
    return use > lowerMark;
  }

  boolean atLimit(long use) {
    return use >= limit;
  }

  /** Where {@code use} lies between the lower mark (0) and the limit (1), for pacing writes. */
  double pacingPosition(long use) {
    return WriteController.position(use, lowerMark, limit);
  }

  /**
   * The regions to flush to bring {@code use} under the lower mark: the largest first, until the
   * memory they hold covers the excess. Empty when use is not above the lower mark.
   */
  <R> List<R> toFlush(Map<R, Long> memoryByRegion, long use) {
    List<R> picked = new ArrayList<>();
    if (!aboveLowerMark(use)) {
      return picked;
    }
    List<Map.Entry<R, Long>> bySize = new ArrayList<>(memoryByRegion.entrySet());
    bySize.sort(Map.Entry.<R, Long>comparingByValue(Comparator.reverseOrder()));
    long excess = use - lowerMark;
    for (Map.Entry<R, Long> e : bySize) {
      if (excess <= 0 || e.getValue() <= 0) {
        break;
      }
      picked.add(e.getKey());
      excess -= e.getValue();
    }
    return picked;
  }
}
