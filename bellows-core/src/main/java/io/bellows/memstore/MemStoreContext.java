package io.bellows.memstore;

import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.scan.RetentionFilter;
import io.bellows.util.Clock;
import java.util.function.Supplier;

/**
 * Everything a memory store needs from its surroundings, passed in so that it never reaches up into
 * the store, region or WAL.
 *
 * @param family the family's name (for messages)
 * @param options the family's resolved memory-store settings (policy, A, S, R, index kinds, MSLAB,
 *     row filter)
 * @param flushSize the store's flush size in bytes (A is a fraction of it)
 * @param chunks the engine's chunk allocator, shared by all stores (chunk size, on/off heap; may be
 *     unused, or null if the options need no chunks)
 * @param background runs in-memory flushes and compactions and receives their results
 * @param redundancyFilter makes a fresh FLUSH-mode retention filter (with the store's current smallest
 *     read point) for in-memory compaction
 * @param clock time source
 * @param listener told when in-memory work finishes (tests and metrics)
 */
public record MemStoreContext(
    String family,
    MemStoreOptions options,
    long flushSize,
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

    /**
     * A compaction's result has replaced its input in the pipeline and is about to be charged to
     * the accounting; called under the lock a snapshot takes (a test pauses here to race one).
     */
    default void compactionReplacing() {}
  }
}
