package io.bellows.engine;

import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.memstore.InMemoryWork;
import io.bellows.metrics.MetricSet;
import io.bellows.region.Region;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's background threads: disk flushes, minor compactions and the memory stores'
 * in-memory work, each on its own pool (sizes from the knobs). A region has at most one queued
 * flush and one queued compaction request at a time.
 *
 * <p>Failures are counted, and the work is retried on the next request, but after a failure not
 * at once: the retry waits {@link #RETRY_BASE_MS} doubled per consecutive failure, up to {@link
 * #RETRY_MAX_MS}, so that a persistent cause (a full disk) costs a few attempts a minute rather
 * than a tight loop. The log gets one line when a kind of work starts failing for a region and one
 * when it works again, not one per attempt.
 */
final class BackgroundWork {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundWork.class);

  private final MetricSet metrics;
  private final Runnable memoryReleased;
  private final ExecutorService flushes;
  private final ExecutorService compactions;
  private final ExecutorService inMemory;
  private final Set<Region> flushQueued = ConcurrentHashMap.newKeySet();
  private final Set<Region> compactionQueued = ConcurrentHashMap.newKeySet();
  /** Consecutive failures of one kind of work of one region; absent while it works. */
  private final Map<Failing, Integer> failures = new ConcurrentHashMap<>();
  private final ScheduledExecutorService retryTimer =
      Executors.newSingleThreadScheduledExecutor(daemon("bellows-retry-timer"));
  private volatile boolean stopping;

  static final long RETRY_BASE_MS = 100;
  static final long RETRY_MAX_MS = 10_000;

  private record Failing(String what, Region region) {}

  /**
   * @param memoryReleased run after a flush or an in-memory compaction released memory-store
   *     data (their results say so): the engine then deletes the WAL files no store needs
   */
  BackgroundWork(EngineOptions options, MetricSet metrics, Runnable memoryReleased) {
    this.metrics = metrics;
    this.memoryReleased = memoryReleased;
    this.flushes = Executors.newFixedThreadPool(options.get(Knobs.FLUSH_THREADS), daemon("bellows-flush"));
    this.compactions = Executors.newFixedThreadPool(options.get(Knobs.COMPACTION_THREADS), daemon("bellows-compaction"));
    this.inMemory = Executors.newFixedThreadPool(options.get(Knobs.IN_MEMORY_COMPACTION_THREADS),
        daemon("bellows-inmemory-compaction"));
    metrics.gauge("background.work.failing", failures::size);
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
    }
  }

  /** Queues a flush of the stores that reached their flush size (no-op if one is queued). */
  void requestFlush(Region region) {
    if (!stopping && flushQueued.add(region)) {
      submit(flushes, region, () -> {
        flushQueued.remove(region);
        if (!stopping && !region.isClosedForWork()) {
          flushRegion(region, false);
        }
      }, () -> flushQueued.remove(region), "flush");
    }
  }

  /** Queues a flush of every store of the region (used to let old WAL files go). */
  void requestFlushAll(Region region) {
    submit(flushes, region, () -> {
      if (!stopping && !region.isClosedForWork()) {
        flushRegion(region, true);
      }
    }, () -> { }, "flush");
  }

  /** Queues minor compactions of the region until its policy picks nothing more. */
  void requestCompaction(Region region) {
    if (!stopping && compactionQueued.add(region)) {
      submit(compactions, region, () -> {
        compactionQueued.remove(region);
        for (int round = 0; round < 100 && !stopping && !region.isClosedForWork() && region.needsCompaction(); round++) {
          region.compact(false);
        }
      }, () -> compactionQueued.remove(region), "compaction");
    }
  }

  /** Runs the work on the pool, after the retry delay if it failed last time. */
  private void submit(ExecutorService pool, Region region, Runnable work, Runnable onReject, String what) {
    Failing key = new Failing(what, region);
    Runnable task = () -> {
      try {
        work.run();
        succeeded(key);
      } catch (RuntimeException e) {
        failed(key, e);
      }
    };
    try {
      long delay = retryDelayMs(failures.getOrDefault(key, 0));
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

  private void failed(Failing key, RuntimeException e) {
    metrics.counter(key.what() + ".failures").increment();
    int n = failures.merge(key, 1, Integer::sum);
    if (n == 1) {
      LOG.error("background {} of table '{}' failed; retrying with backoff up to every {} s until it"
          + " works (one line is logged when it does)", key.what(), key.region().descriptor().name(),
          RETRY_MAX_MS / 1000, e);
    } else {
      LOG.debug("background {} of table '{}' failed again ({} in a row)", key.what(),
          key.region().descriptor().name(), n, e);
    }
  }

  private void succeeded(Failing key) {
    Integer n = failures.remove(key);
    if (n != null) {
      LOG.info("background {} of table '{}' works again after {} failed attempts", key.what(),
          key.region().descriptor().name(), n);
    }
  }

  /** Lets queued and running work finish, then stops the threads. */
  void shutdown() {
    stopping = true;
    retryTimer.shutdownNow(); // pending retries are dropped: close flushes by itself
    for (ExecutorService pool : new ExecutorService[] {flushes, compactions, inMemory}) {
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
