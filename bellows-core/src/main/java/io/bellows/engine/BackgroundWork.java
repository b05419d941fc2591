package io.bellows.engine;

import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.memstore.InMemoryWork;
import io.bellows.region.Region;
import io.bellows.util.BackgroundError.Kind;
import io.bellows.util.DamagedFileException;
import java.util.function.BiConsumer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The engine's background threads: disk flushes, minor compactions and the memory stores'
 * in-memory work, each on its own pool (sizes from the knobs). A region has at most one queued
 * flush and one queued compaction request at a time.
 *
 * <p>A failed flush or compaction goes into the engine's {@link BackgroundErrors} state and is
 * retried by itself, not at once but after {@link #RETRY_BASE_MS} doubled per consecutive failure,
 * up to {@link #RETRY_MAX_MS}, until it works: a persistent cause (a full disk) costs a few attempts
 * a minute rather than a tight loop, and the first retry that works after the cause went away clears
 * the state (and resumes writes if they were stopped) without anyone asking. A retried flush flushes
 * every store of the table. An {@link Error} (out of memory, a stack overflow) fails the work as an
 * exception does: recorded and retried, never silent.
 *
 * <p>Corruption is not retried: a compaction that met a damaged file ({@link DamagedFileException})
 * goes to the engine's corruption policy ({@link #onDamagedFile}) once, and the damaged store
 * compacts no more until the file is set aside.
 */
final class BackgroundWork {
  private final ExecutorService flushes;
  private final ExecutorService compactions;
  private final ExecutorService inMemory;
  /** Automatic region splits, one at a time. */
  private final ExecutorService splits = Executors.newSingleThreadExecutor(daemon("bellows-split"));
  /** Called with a region after a flush or compaction of it: the engine checks whether it should split. */
  private volatile java.util.function.Consumer<Region> afterWork = r -> { };
  /** The engine's corruption policy, called with a region whose compaction met a damaged file. */
  private volatile BiConsumer<Region, DamagedFileException> onDamagedFile = (r, e) -> { };
  private final BackgroundErrors errors;
  private final Runnable memoryReleased;
  private final Set<Region> flushQueued = ConcurrentHashMap.newKeySet();
  private final Set<Region> compactionQueued = ConcurrentHashMap.newKeySet();
  private final Set<Region> flushAllQueued = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService retryTimer =
      Executors.newSingleThreadScheduledExecutor(daemon("bellows-retry-timer"));
  private volatile boolean stopping;

  static final long RETRY_BASE_MS = 100;
  static final long RETRY_MAX_MS = 10_000;

  /**
   * @param memoryReleased run after a flush or an in-memory compaction released memory-store
   *     data (their results say so): the engine then deletes the WAL files no store needs
   */
  BackgroundWork(EngineOptions options, BackgroundErrors errors, Runnable memoryReleased) {
    this.errors = errors;
    this.memoryReleased = memoryReleased;
    this.flushes = Executors.newFixedThreadPool(options.get(Knobs.FLUSH_THREADS), daemon("bellows-flush"));
    this.compactions = Executors.newFixedThreadPool(options.get(Knobs.COMPACTION_THREADS), daemon("bellows-compaction"));
    this.inMemory = Executors.newFixedThreadPool(options.get(Knobs.IN_MEMORY_COMPACTION_THREADS),
        daemon("bellows-inmemory-compaction"));
  }

  /** Runs memory stores' in-memory work on its pool; a raised oldest sequence id may free WAL files. */
  InMemoryWork inMemoryCompactions() {
    return task -> inMemory.execute(() -> {
      if (task.getAsLong() != InMemoryWork.UNCHANGED) {
        memoryReleased.run();
      }
    });
  }

  private void flushRegion(Region region, boolean all) {
    if (region.flush(all) != Region.NOTHING_FLUSHED) {
      memoryReleased.run();
      afterWork.accept(region);
    }
  }

  /** Sets what runs with a region after each background flush or compaction of it. */
  void afterWork(java.util.function.Consumer<Region> check) {
    this.afterWork = check;
  }

  /** Sets what runs when a background compaction meets a damaged file (instead of a retry). */
  void onDamagedFile(BiConsumer<Region, DamagedFileException> policy) {
    this.onDamagedFile = policy;
  }

  /** Runs a split on the split thread; dropped when shutting down. */
  void split(Runnable task) {
    if (stopping) {
      return;
    }
    try {
      splits.execute(task);
    } catch (RejectedExecutionException e) {
      // shutting down
    }
  }

  /** Runs a short task on the timer thread (never on the caller's); dropped when shutting down. */
  void later(Runnable task) {
    try {
      retryTimer.execute(task);
    } catch (RejectedExecutionException e) {
      // shutting down
    }
  }

  /** Queues a flush of the stores that reached their flush size (no-op if one is queued). */
  void requestFlush(Region region) {
    if (!stopping && flushQueued.add(region)) {
      submit(flushes, Kind.FLUSH, region, () -> {
        flushQueued.remove(region);
        if (!stopping && !region.isClosedForWork()) {
          flushRegion(region, errors.attempts(Kind.FLUSH, region) > 0);
        }
      }, () -> flushQueued.remove(region), () -> requestFlush(region));
    }
  }

  /**
   * Queues a flush of every store of the region (to let old WAL files go, or for the engine's memory
   * budget); returns false, a no-op, while one is queued.
   */
  boolean requestFlushAll(Region region) {
    if (!stopping && flushAllQueued.add(region)) {
      submit(flushes, Kind.FLUSH, region, () -> {
        flushAllQueued.remove(region);
        if (!stopping && !region.isClosedForWork()) {
          flushRegion(region, true);
        }
      }, () -> flushAllQueued.remove(region), () -> requestFlush(region));
      return true;
    }
    return false;
  }

  /** Queues minor compactions of the region until its policy picks nothing more. */
  void requestCompaction(Region region) {
    if (!stopping && compactionQueued.add(region)) {
      submit(compactions, Kind.COMPACTION, region, () -> {
        compactionQueued.remove(region);
        boolean compacted = false;
        for (int round = 0; round < 100 && !stopping && !region.isClosedForWork() && region.needsCompaction(); round++) {
          region.compact(false);
          compacted = true;
        }
        if (compacted) {
          afterWork.accept(region);
        }
      }, () -> compactionQueued.remove(region), () -> requestCompaction(region));
    }
  }

  /**
   * Runs the work on the pool, after the retry delay if it failed last time; records the outcome in
   * the error state, and after a failure asks for the work again (it then waits the longer delay).
   */
  private void submit(ExecutorService pool, Kind kind, Region region, Runnable work, Runnable onReject,
      Runnable retry) {
    Runnable task = () -> {
      try {
        work.run();
      } catch (DamagedFileException e) {
        if (!stopping && !region.isClosedForWork()) {
          onDamagedFile.accept(region, e); // never retried: the file stays damaged
        }
        return;
      } catch (RuntimeException | Error e) {
        // An Error too (resource exhaustion): recorded and retried, never lost with the pool's thread.
        if (!stopping && !region.isClosedForWork()) {
          errors.failed(kind, region, e);
          retry.run();
        }
        return;
      }
      errors.succeeded(kind, region);
    };
    try {
      long delay = retryDelayMs(errors.attempts(kind, region));
      if (delay == 0) {
        pool.execute(task);
      } else {
        retryTimer.schedule(() -> {
          try {
            pool.execute(task);
          } catch (RejectedExecutionException e) {
            onReject.run(); // shutting down
          }
        }, delay, TimeUnit.MILLISECONDS);
      }
    } catch (RejectedExecutionException e) {
      onReject.run(); // shutting down
    }
  }

  /** The wait before the next attempt after {@code failures} consecutive failures. */
  static long retryDelayMs(int failures) {
    if (failures == 0) {
      return 0;
    }
    return Math.min(RETRY_MAX_MS, RETRY_BASE_MS << Math.min(failures - 1, 20));
  }

  /** Lets queued and running work finish, then stops the threads. */
  void shutdown() {
    stopping = true;
    retryTimer.shutdownNow(); // pending retries are dropped: close flushes by itself
    for (ExecutorService pool : new ExecutorService[] {splits, flushes, compactions, inMemory}) {
      pool.shutdown();
      try {
        if (!pool.awaitTermination(10, TimeUnit.MINUTES)) {
          pool.shutdownNow();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        pool.shutdownNow();
      }
    }
  }

  /** Stops at once (after a failed open). */
  void shutdownNow() {
    stopping = true;
    retryTimer.shutdownNow();
    splits.shutdownNow();
    flushes.shutdownNow();
    compactions.shutdownNow();
    inMemory.shutdownNow();
  }

  private static ThreadFactory daemon(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
