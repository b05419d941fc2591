package io.bellows.cluster.server;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * How many log entries a member's replicas may hold above their last flush, together. Ratis keeps
 * an index of every entry of a group's log files in memory (a few hundred bytes each: its position,
 * term and cache nodes) until a checkpoint lets it drop the files, and a checkpoint follows a
 * flush. Small writes make entries many and memory stores small: a member of 256 MiB held some
 * 130,000 such entries after four minutes of single-row puts, while its memory stores were far
 * from their budget. So past {@code limit} entries the replica holding the most is flushed, as the
 * write-ahead log's file count forces flushes of a single engine. {@code R}: a replica's region.
 * Thread-safe.
 */
final class LogEntryBudget<R> {
  /** Bytes Ratis holds per entry of a log file, beside the entry's own (measured from heap histograms). */
  static final long BYTES_PER_ENTRY = 250;

  private final long limit;
  private final Predicate<R> flushAll;
  private final Map<R, AtomicLong> unflushed = new ConcurrentHashMap<>();
  private final AtomicLong total = new AtomicLong();

  /**
   * @param limit entries above the replicas' last flushes, together, past which one is flushed
   * @param flushAll queues a flush of every store of a region; false if one was queued already
   */
  LogEntryBudget(long limit, Predicate<R> flushAll) {
    if (limit <= 0) {
      throw new IllegalArgumentException("the log entry budget must be positive: " + limit);
    }
    this.limit = limit;
    this.flushAll = flushAll;
  }

  /** The budget for a heap of {@code maxHeapBytes}: a tenth of it at {@link #BYTES_PER_ENTRY} an entry. */
  static long forHeap(long maxHeapBytes) {
    return Math.max(10_000, maxHeapBytes / 10 / BYTES_PER_ENTRY);
  }

  long limit() {
    return limit;
  }

  /** The entries above the last flush of every replica, together. */
  long total() {
    return total.get();
  }

  /** {@code region} applied one more entry; past the limit, the replica holding the most is flushed. */
  void applied(R region) {
    unflushed.computeIfAbsent(region, r -> new AtomicLong()).incrementAndGet();
    if (total.incrementAndGet() > limit) {
      R most = null;
      long mostEntries = -1;
      for (Map.Entry<R, AtomicLong> e : unflushed.entrySet()) {
        long n = e.getValue().get();
        if (n > mostEntries) {
          most = e.getKey();
          mostEntries = n;
        }
      }
      if (most != null) {
        flushAll.test(most); // false when one is queued already: its entries go when it begins
      }
    }
  }

  /**
   * A flush of every store of {@code region} begins: what it applied so far leaves the budget (the
   * flush covers it; a flush that fails leaves it to the next one).
   */
  void flushing(R region) {
    AtomicLong n = unflushed.get(region);
    if (n != null) {
      total.addAndGet(-n.getAndSet(0));
    }
  }

  /** The entries {@code region} applied above its last flush. */
  long entries(R region) {
    AtomicLong n = unflushed.get(region);
    return n == null ? 0 : n.get();
  }

  /** {@code region} is gone (closed, or replaced by an installed checkpoint): its entries leave the budget. */
  void forget(R region) {
    AtomicLong n = unflushed.remove(region);
    if (n != null) {
      total.addAndGet(-n.get());
    }
  }
}
