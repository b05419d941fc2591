package io.bellows.engine;

import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.metrics.MetricSet;
import io.bellows.region.Region;
import io.bellows.store.Store;
import io.bellows.util.EventListener;
import io.bellows.util.EventListener.StallCause;
import io.bellows.util.StorageException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The engine's side of back-pressure, asked before every write (the region's side — one store's
 * memory and files — is in {@code Region}): the {@link MemoryBudget} of all memory stores together
 * and the {@link WriteController} that paces writes near any limit. A cluster member has one too,
 * over its replicas' regions: its leaders' writers are admitted by it, and its replicas applying the
 * log (which must not wait) ask it to {@link #relieve} the budget by flushes.
 *
 * <ul>
 *   <li>Above the budget's lower mark: flush the regions holding the most memory (counted as
 *       {@code flush.forced.global.memory}) and pace writes, slower as the budget comes closer.
 *   <li>At the budget: the write waits until flushes bring use under it (a {@code
 *       GLOBAL_MEMORY_FULL} stall), re-checking that writes are still allowed.
 * </ul>
 *
 * <p>Metrics per cause ({@code global.memory}, {@code store.memory}, {@code store.files}):
 * {@code writes.delayed.count.<cause>} and {@code writes.delayed.nanos.<cause>}. Thread-safe.
 */
public final class BackPressure {
  /** Longest one write is paced; a larger write is let through after it (a cap, not a debt). */
  private static final long MAX_DELAY_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final long MEASURE_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long STALL_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final MemoryBudget budget;
  private final WriteController pacer;
  private final Supplier<? extends Collection<Region>> regions;
  private final Predicate<Region> flushAll;
  private volatile long lastFlushPick = System.nanoTime() - MEASURE_EVERY_NANOS;
  private final Runnable checkWritesAllowed;
  private final EventListener events;
  private final LongAdder forcedFlushes;
  private final Map<String, LongAdder[]> delayed = new HashMap<>();
  private final Object memoryFreed = new Object();

  /**
   * @param regions the engine's open regions now
   * @param flushAll queues a flush of every store of a region; false if one was queued already
   * @param checkWritesAllowed throws if the engine stopped accepting writes
   */
  public BackPressure(EngineOptions options, MetricSet metrics, EventListener events,
      Supplier<? extends Collection<Region>> regions,
      Predicate<Region> flushAll, Runnable checkWritesAllowed) {
    long limit = HeapShares.memStoreLimit(options, Runtime.getRuntime().maxMemory());
    this.budget = new MemoryBudget(limit, options.get(Knobs.MEMSTORE_GLOBAL_LOWER_FRACTION), this::measure,
        MEASURE_EVERY_NANOS);
    this.pacer = new WriteController(options.get(Knobs.WRITE_DELAYED_RATE));
    this.regions = regions;
    this.flushAll = flushAll;
    this.checkWritesAllowed = checkWritesAllowed;
    this.events = events;
    this.forcedFlushes = metrics.counter("flush.forced.global.memory");
    for (String cause : new String[] {"global.memory", "store.memory", "store.files"}) {
      delayed.put(cause, new LongAdder[] {metrics.counter("writes.delayed.count." + cause),
          metrics.counter("writes.delayed.nanos." + cause)});
    }
    metrics.gauge("writes.delayed.now", pacing::get);
    metrics.gauge("memstore.global.limit.bytes", budget::limit);
    metrics.gauge("memstore.global.used.bytes", () -> budget.use(System.nanoTime()));
  }

  /** Writers being paced now. */
  private final java.util.concurrent.atomic.AtomicInteger pacing = new java.util.concurrent.atomic.AtomicInteger();

  /** Before a write of {@code bytes} to {@code region}: flushes, paces or waits for the budget. */
  public void admit(Region region, long bytes) {
    long now = System.nanoTime();
    long use = budget.use(now);
    if (!budget.aboveLowerMark(use)) {
      return;
    }
    flushLargest(use);
    if (budget.atLimit(use)) {
      stall(region);
    } else {
      pace(bytes, budget.pacingPosition(use), "global.memory");
    }
  }

  /** Paces a write of {@code bytes} at {@code position} of a slow-down zone; {@code cause} names it. */
  public void pace(long bytes, double position, String cause) {
    if (position <= 0) {
      return;
    }
    long now = System.nanoTime();
    long wait = Math.min(pacer.delayNanos(bytes, Math.min(position, 1), now), MAX_DELAY_NANOS);
    long until = now + wait;
    pacing.incrementAndGet();
    try {
      // An interrupted writer is not paced further: parkNanos would return at once, again and
      // again (a busy spin), and the interrupt is its caller's to see.
      for (long left = wait; left > 0 && !Thread.currentThread().isInterrupted(); left = until - System.nanoTime()) {
        LockSupport.parkNanos(left);
      }
    } finally {
      pacing.decrementAndGet();
    }
    LongAdder[] m = delayed.get(cause);
    m[0].increment();
    m[1].add(wait);
  }

  /**
   * After a write applied without {@link #admit} (a replica applying its log, which may neither wait
   * nor be paced): above the lower mark, asks for flushes of the regions holding the most memory.
   * Without it a follower's memory stores flush only at the flush size, per store, whatever the heap.
   */
  public void relieve() {
    long use = budget.use(System.nanoTime());
    if (budget.aboveLowerMark(use)) {
      flushLargest(use);
    }
  }

  /** Memory was freed (a flush or an in-memory compaction): measure again and wake stalled writers. */
  public void memoryReleased() {
    budget.remeasure(System.nanoTime());
    synchronized (memoryFreed) {
      memoryFreed.notifyAll();
    }
  }

  private void stall(Region region) {
    long start = System.nanoTime();
    String table = region.descriptor().name();
    events.writeStallBegin(new EventListener.WriteStallInfo(table, "", StallCause.GLOBAL_MEMORY_FULL, Duration.ZERO));
    try {
      synchronized (memoryFreed) {
        for (long use = budget.remeasure(System.nanoTime()); budget.atLimit(use);
            use = budget.remeasure(System.nanoTime())) {
          checkWritesAllowed.run();
          flushLargest(use);
          // Timed: a flush that frees memory notifies, but one that fails does not; then the
          // writes-allowed check above ends the wait once the engine stops writes.
          TimeUnit.NANOSECONDS.timedWait(memoryFreed, STALL_RECHECK_NANOS);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted while waiting for memory-store flushes", e);
    } finally {
      events.writeStallEnd(new EventListener.WriteStallInfo(table, "", StallCause.GLOBAL_MEMORY_FULL,
          Duration.ofNanos(System.nanoTime() - start)));
    }
  }

  /** Asks for flushes of the largest regions, at most once per measurement interval. */
  private void flushLargest(long use) {
    long now = System.nanoTime();
    if (now - lastFlushPick < MEASURE_EVERY_NANOS) {
      return;
    }
    lastFlushPick = now;
    Map<Region, Long> memory = new HashMap<>();
    for (Region r : regions.get()) {
      memory.put(r, regionMemory(r));
    }
    for (Region r : budget.toFlush(memory, use)) {
      if (flushAll.test(r)) {
        forcedFlushes.increment();
      }
    }
  }

  private long measure() {
    long total = 0;
    for (Region r : regions.get()) {
      total += regionMemory(r);
    }
    return total;
  }

  private static long regionMemory(Region r) {
    long bytes = 0;
    for (Store s : r.stores().values()) {
      bytes += s.memStoreSize().footprint();
    }
    return bytes;
  }
}
