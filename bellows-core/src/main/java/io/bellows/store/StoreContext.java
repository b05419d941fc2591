package io.bellows.store;

import io.bellows.config.EngineOptions;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.metrics.MetricSet;
import io.bellows.util.Clock;
import io.bellows.util.EventListener;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/**
 * What a store needs from its region and engine, passed in so the store never reaches up.
 *
 * @param engine engine-wide settings
 * @param flushSize the table's flush size
 * @param smallestReadPoint the smallest read point of the region's readers (for rewrites)
 * @param inMemoryCompactions executor for the memory store's background work
 * @param chunks the engine's chunk allocator
 * @param engineMetrics the engine-wide metric set that store counters also add to
 * @param walMayShrink called when data left memory (in-memory compaction raised the oldest
 *     unflushed sequence id), so the engine can delete WAL files no store needs any more
 * @param table the table's name, for events
 * @param events where flush and compaction events go (the engine's listeners; must not throw)
 */
public record StoreContext(
    EngineOptions engine,
    long flushSize,
    LongSupplier smallestReadPoint,
    Executor inMemoryCompactions,
    ChunkAllocator chunks,
    MetricSet engineMetrics,
    Runnable walMayShrink,
    String table,
    EventListener events) {
  /** A context whose events go nowhere (tests of a store on its own). */
  public StoreContext(EngineOptions engine, long flushSize, LongSupplier smallestReadPoint,
      Executor inMemoryCompactions, ChunkAllocator chunks, MetricSet engineMetrics, Runnable walMayShrink) {
    this(engine, flushSize, smallestReadPoint, inMemoryCompactions, chunks, engineMetrics, walMayShrink, "",
        new EventListener() { });
  }

  public Clock clock() {
    return engine.clock();
  }
}
