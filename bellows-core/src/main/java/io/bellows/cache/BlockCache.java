package io.bellows.cache;

import java.nio.ByteBuffer;
import java.util.Map;

/**
 * A cache of sorted-file blocks shared by every store of one engine. Thread-safe: any thread may
 * get, put and evict concurrently; a get never returns a block other than the one put under its
 * key (keys name immutable bytes, see {@link BlockKey}).
 */
public interface BlockCache {
  /** The cache that holds nothing. */
  BlockCache NONE = new BlockCache() {
    @Override
    public CachedBlock get(BlockKey key, BlockKind kind) {
      return null;
    }

    @Override
    public void put(BlockKey key, CachedBlock block, boolean inMemory) {}

    @Override
    public void evictFile(long file) {}

    @Override
    public Map<String, Number> metrics() {
      return Map.of();
    }

    @Override
    public void close() {}
  };

  /** The block under {@code key}, or null; {@code kind} is what the caller expects (for metrics). */
  CachedBlock get(BlockKey key, BlockKind kind);

  /**
   * Runs {@code reader} over the payload of the block under {@code key} where the cache holds it, or
   * returns null when it holds none (as {@link #get}, counted alike). A cache that holds the block
   * off the heap reads it there, without copying the block to the heap (see {@link PayloadReader}
   * for what the reader must tolerate); this one reads the heap copy {@link #get} returns.
   */
  default <T> InPlaceRead<T> readInPlace(BlockKey key, BlockKind kind, PayloadReader<T> reader) {
    CachedBlock b = get(key, kind);
    return b == null ? null : new InPlaceRead<>(reader.read(ByteBuffer.wrap(b.payload())), b);
  }

  /**
   * Offers a block; the cache may decline it (too large, cache off). {@code inMemory} asks for the
   * in-memory priority area (the family's {@code IN_MEMORY}).
   */
  void put(BlockKey key, CachedBlock block, boolean inMemory);

  /** Offers a block a flush just wrote (cache-on-write); a tiered cache may place it differently. */
  default void putWritten(BlockKey key, CachedBlock block, boolean inMemory) {
    put(key, block, inMemory);
  }

  /** Drops every block of a file: called when the file is deleted. */
  void evictFile(long file);

  /** Hits, misses, evictions, sizes and hit ratios, by level and block kind. */
  Map<String, Number> metrics();

  /** Drops everything and releases the memory; the cache must not be used afterwards. */
  void close();
}
