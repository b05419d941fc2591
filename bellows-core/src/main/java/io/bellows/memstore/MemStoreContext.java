package io.bellows.memstore;

import io.bellows.config.EngineOptions;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.scan.RetentionFilter;
import io.bellows.util.Clock;
import java.util.function.Supplier;

/**
 * Everything a memory store needs from its surroundings, passed in so that it never reaches up into
 * the store, region or WAL.
 *
 * @param family the family's settings (policy, A, S, R, index kinds, versions, TTL)
 * @param flushSize the store's flush size in bytes (A is a fraction of it)
 * @param engine engine-wide settings (chunk size, pool, on/off heap)
 * @param chunks the engine's chunk allocator, shared by all stores (may be unused by NONE)
 * @param background runs in-memory flushes and compactions and receives their results
 * @param redundancyFilter makes a fresh FLUSH-mode retention filter (with the store's current smallest
 *     read point) for in-memory compaction
 * @param clock time source
 * @param listener told when in-memory work finishes (tests and metrics)
 */
public record MemStoreContext(
    ColumnFamilyDescriptor family,
    long flushSize,
    EngineOptions engine,
    ChunkAllocator chunks,
    InMemoryWork background,
    Supplier<RetentionFilter> redundancyFilter,
    Clock clock,
    Listener listener) {

  /**
   * Observes a memory store's background work (tests and metrics). Called from background
   * threads; must be cheap. Nothing the engine acts on comes this way: that is returned by the
   * work itself ({@link InMemoryWork}).
   */
  public interface Listener {
    Listener NONE = new Listener() {};

    /** An in-memory flush or compaction round finished. */
    default void inMemoryCompactionDone() {}
  }
}
