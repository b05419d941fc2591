package io.bellows.memstore;

import io.bellows.config.EngineOptions;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.scan.RetentionFilter;
import io.bellows.util.Clock;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Everything a memory store needs from its surroundings, passed in so that it never reaches up into
 * the store, region or WAL.
 *
 * @param family the family's settings (policy, A, S, R, index kinds, versions, TTL)
 * @param flushSize the store's flush size in bytes (A is a fraction of it)
 * @param engine engine-wide settings (chunk size, pool, on/off heap)
 * @param chunks the engine's chunk allocator, shared by all stores (may be unused by NONE)
 * @param background executor for in-memory flushes and compactions
 * @param redundancyFilter makes a fresh FLUSH-mode retention filter (with the store's current smallest
 *     read point) for in-memory compaction
 * @param clock time source
 * @param listener told when the memory store's state changes in ways the store cares about
 */
public record MemStoreContext(
    ColumnFamilyDescriptor family,
    long flushSize,
    EngineOptions engine,
    ChunkAllocator chunks,
    Executor background,
    Supplier<RetentionFilter> redundancyFilter,
    Clock clock,
    Listener listener) {

  /** Callbacks from a memory store to its owner. Called from background threads; must be cheap. */
  public interface Listener {
    Listener NONE = new Listener() {};

    /** The oldest unflushed sequence id rose (in-memory compaction dropped old versions). */
    default void oldestUnflushedSeqIdRose(long newOldest) {}

    /** An in-memory flush or compaction finished (for metrics and tests). */
    default void inMemoryCompactionDone() {}
  }
}
