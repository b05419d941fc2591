package io.bellows.client;

import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.metrics.MetricSet;
import io.bellows.region.Region;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's background threads: disk flushes, minor compactions and the memory stores'
 * in-memory work, each on its own pool (sizes from the knobs). A region has at most one queued
 * flush and one queued compaction request at a time. Failures are logged and counted; the work is
 * retried on the next request.
 */
final class BackgroundWork {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundWork.class);

  private final MetricSet metrics;
  private final ExecutorService flushes;
  private final ExecutorService compactions;
  private final ExecutorService inMemory;
  private final Set<Region> flushQueued = ConcurrentHashMap.newKeySet();
  private final Set<Region> compactionQueued = ConcurrentHashMap.newKeySet();
  private volatile boolean stopping;

  BackgroundWork(EngineOptions options, MetricSet metrics) {
    this.metrics = metrics;
    this.flushes = Executors.newFixedThreadPool(options.get(Knobs.FLUSH_THREADS), daemon("bellows-flush"));
    this.compactions = Executors.newFixedThreadPool(options.get(Knobs.COMPACTION_THREADS), daemon("bellows-compaction"));
    this.inMemory = Executors.newFixedThreadPool(options.get(Knobs.IN_MEMORY_COMPACTION_THREADS),
        daemon("bellows-inmemory-compaction"));
  }

  Executor inMemoryCompactions() {
    return inMemory;
  }

  /** Queues a flush of the stores that reached their flush size (no-op if one is queued). */
  void requestFlush(Region region) {
    if (!stopping && flushQueued.add(region)) {
      submit(flushes, () -> {
        flushQueued.remove(region);
        if (!stopping && !region.isClosedForWork()) {
          region.flush(false);
        }
      }, () -> flushQueued.remove(region), "flush");
    }
  }

  /** Queues a flush of every store of the region (used to let old WAL files go). */
  void requestFlushAll(Region region) {
    submit(flushes, () -> {
      if (!stopping && !region.isClosedForWork()) {
        region.flush(true);
      }
    }, () -> { }, "flush");
  }

  /** Queues minor compactions of the region until its policy picks nothing more. */
  void requestCompaction(Region region) {
    if (!stopping && compactionQueued.add(region)) {
      submit(compactions, () -> {
        compactionQueued.remove(region);
        for (int round = 0; round < 100 && !stopping && !region.isClosedForWork() && region.needsCompaction(); round++) {
          region.compact(false);
        }
      }, () -> compactionQueued.remove(region), "compaction");
    }
  }

  private void submit(ExecutorService pool, Runnable work, Runnable onReject, String what) {
    try {
      pool.execute(() -> {
        try {
          work.run();
        } catch (RuntimeException e) {
          LOG.error("background {} failed; it is retried on the next request", what, e);
          metrics.counter(what + ".failures").increment();
        }
      });
    } catch (RejectedExecutionException e) {
      onReject.run(); // shutting down
    }
  }

  /** Lets queued and running work finish, then stops the threads. */
  void shutdown() {
    stopping = true;
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
