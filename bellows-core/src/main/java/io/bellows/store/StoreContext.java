package io.bellows.store;

import io.bellows.kvcache.KvCache;

import io.bellows.cache.BlockCache;
import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.memstore.InMemoryWork;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.metrics.MetricSet;
import io.bellows.util.Clock;
import io.bellows.util.EventListener;
import java.util.function.LongSupplier;

/**
 * What a store needs from its region and engine, passed in so the store never reaches up.
 *
 * @param options the store's settings, resolved once by the region
 * @param clock the engine's time source
 * @param smallestReadPoint the smallest read point of the region's readers (for rewrites)
 * @param inMemoryCompactions runs the memory store's background work and takes its results
 * @param chunks the engine's chunk allocator
 * @param engineMetrics the engine-wide metric set that store counters also add to
 * @param fileNumbers the engine-wide counter that numbers new sorted files
 * @param engineInstanceId the id of this engine instance (one per open); with a file number it
 *     identifies a file's bytes uniquely, the prefix of a block cache's keys
 * @param table the table's name, for events
 * @param events where flush and compaction events go (the engine's listeners; must not throw)
 * @param blockCache the engine's block cache, shared by every store ({@link BlockCache#NONE} for none)
 * @param fs the file system every file of the store is on
 * @param kvCache the engine's KV cache, or null for none (docs/design/kv-cache.md)
 */
public record StoreContext(
    StoreOptions options,
    Clock clock,
    LongSupplier smallestReadPoint,
    InMemoryWork inMemoryCompactions,
    ChunkAllocator chunks,
    MetricSet engineMetrics,
    FileNumberAllocator fileNumbers,
    long engineInstanceId,
    String table,
    EventListener events,
    BlockCache blockCache,
    FileSystem fs,
    KvCache kvCache) {
  /** A context whose events go nowhere, on the local file system (tests of a store on its own). */
  public StoreContext(StoreOptions options, Clock clock, LongSupplier smallestReadPoint,
      InMemoryWork inMemoryCompactions, ChunkAllocator chunks, MetricSet engineMetrics,
      FileNumberAllocator fileNumbers, long engineInstanceId) {
    this(options, clock, smallestReadPoint, inMemoryCompactions, chunks, engineMetrics, fileNumbers,
        engineInstanceId, "", new EventListener() { }, BlockCache.NONE, LocalFileSystem.INSTANCE, null);
  }

  /** The table's flush size, from the options. */
  public long flushSize() {
    return options.flushSize();
  }
}
