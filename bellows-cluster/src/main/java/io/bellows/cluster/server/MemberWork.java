package io.bellows.cluster.server;

import io.bellows.cache.BlockCache;
import io.bellows.config.EngineOptions;
import io.bellows.engine.BackPressure;
import io.bellows.memstore.InMemoryWork;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.metrics.MetricSet;
import io.bellows.region.OptionsResolver;
import io.bellows.region.Region;
import io.bellows.util.EventListener;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a member's replicas share, as an engine's regions do: one memory-store budget (their
 * leaders' writers admitted, paced and stalled by it; a replica applying the log only asks it for
 * flushes), one budget of log entries above their flushes (past it the replica holding the most is
 * flushed, so its group's log can be checkpointed and dropped), the chunk allocator and block
 * cache, the metrics, and the {@code bellows-flush}, {@code bellows-compaction} and {@code
 * bellows-inmemory-compaction} threads. A flush is followed by a checkpoint of the replica's group
 * (its log drops what the files hold) and, like a compaction, by the member's look at whether the
 * region reached its table's {@code MAX_FILESIZE}.
 */
final class MemberWork {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicatedEngine.class); // the engine's messages, under its name

  private final long instanceId = ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE;
  private final MetricSet metrics = new MetricSet();
  private final ChunkAllocator chunks;
  private final BlockCache blockCache;
  /**
   * The member's memory-store budget over every replica's region, as an engine's: without it a
   * follower flushed a store only at its flush size, whatever the heap.
   */
  private final BackPressure memory;
  /** Log entries above the replicas' flushes, whose index Ratis keeps in memory until a checkpoint. */
  private final LogEntryBudget<Region> logEntries = new LogEntryBudget<>(LogEntryBudget.forHeap(Runtime.getRuntime().maxMemory()),
      this::requestFlushAll);
  private final ExecutorService flushes = Executors.newSingleThreadExecutor(daemon("bellows-flush"));
  private final ExecutorService compactions = Executors.newSingleThreadExecutor(daemon("bellows-compaction"));
  private final ExecutorService inMemory = Executors.newSingleThreadExecutor(daemon("bellows-inmemory-compaction"));
  private final Set<Region> flushQueued = ConcurrentHashMap.newKeySet();
  /** After a region's flush: its group is checkpointed, and a region grown past its table's size splits. */
  private final Consumer<Region> flushed;
  /** After a region's compaction: a region grown past its table's size splits. */
  private final Consumer<Region> compacted;
  private volatile boolean closed;

  /**
   * The shared work of a member with {@code options}, whose open regions {@code regionsNow} lists
   * (the memory budget chooses among them), {@code flushed} following each flush and {@code
   * compacted} each compaction of a region.
   */
  MemberWork(EngineOptions options, Supplier<List<Region>> regionsNow, Consumer<Region> flushed,
      Consumer<Region> compacted) {
    this.flushed = flushed;
    this.compacted = compacted;
    this.chunks = OptionsResolver.chunkAllocator(options);
    this.blockCache = OptionsResolver.blockCache(options, Runtime.getRuntime().maxMemory());
    this.memory = new BackPressure(options, metrics, new EventListener() {}, regionsNow, this::requestFlushAll, () -> {});
  }

  long instanceId() {
    return instanceId;
  }

  MetricSet metricSet() {
    return metrics;
  }

  /** In-memory compactions on the member's thread; one that released memory wakes writers waiting for the budget. */
  InMemoryWork inMemoryWork() {
    return task -> inMemory.execute(() -> {
      if (task.getAsLong() != InMemoryWork.UNCHANGED) {
        memory.memoryReleased();
      }
    });
  }

  BackPressure memory() {
    return memory;
  }

  LogEntryBudget<Region> logEntries() {
    return logEntries;
  }

  ChunkAllocator chunks() {
    return chunks;
  }

  BlockCache blockCache() {
    return blockCache;
  }

  /**
   * Flushes the region's stores at or over their flush size on the flush thread, then checkpoints
   * its group: the log drops what the files hold.
   */
  void requestFlush(Region region) {
    queueFlush(region, false);
  }

  /** As {@link #requestFlush}, every store of the region (the member's memory budget asks); false if one was queued. */
  boolean requestFlushAll(Region region) {
    return queueFlush(region, true);
  }

  private boolean queueFlush(Region region, boolean all) {
    if (closed || !flushQueued.add(region)) {
      return false;
    }
    flushes.execute(() -> {
      flushQueued.remove(region);
      if (closed || region.isClosedForWork()) {
        logEntries.forget(region); // replaced by an installed checkpoint, split, or closing
        return;
      }
      try {
        if (all) {
          logEntries.flushing(region);
        }
        if (region.flush(all) != Region.NOTHING_FLUSHED) {
          memory.memoryReleased();
          flushed.accept(region);
        }
      } catch (RuntimeException e) {
        LOG.warn("flush of region {} of table '{}' failed: {}", region.id(), region.descriptor().name(), e.toString(), e);
      }
    });
    return true;
  }

  void requestCompaction(Region region) {
    if (closed) {
      return;
    }
    compactions.execute(() -> {
      try {
        if (!closed && !region.isClosedForWork() && region.needsCompaction()) {
          region.compact(false);
          compacted.accept(region);
        }
      } catch (RuntimeException e) {
        LOG.warn("compaction of region {} of table '{}' failed: {}", region.id(), region.descriptor().name(), e.toString(), e);
      }
    });
  }

  /** Stops the threads: queued flushes and compactions are dropped (the member flushed its replicas first). */
  void close() {
    closed = true;
    flushes.shutdownNow();
    compactions.shutdownNow();
    inMemory.shutdownNow();
  }

  static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
