package io.bellows.sstable;

import io.bellows.cache.BlockCache;
import io.bellows.cache.BlockKey;
import io.bellows.cache.BlockKind;
import io.bellows.cache.CachePolicy;
import io.bellows.cache.CachedBlock;
import java.util.function.Consumer;

/**
 * How a store's sorted files use the engine's block cache: the reader wrapper (lookups of data
 * blocks, and eviction of a file's blocks when the file is deleted) and the cache-on-write hook of a
 * flush. Immutable; thread-safe.
 */
public final class BlockCaching {
  private final BlockCache cache;
  private final CachePolicy policy;

  public BlockCaching(BlockCache cache, CachePolicy policy) {
    this.cache = cache;
    this.policy = policy;
  }

  /** The wrapper readers of this store open files with. */
  public BlockSource.Wrapper wrapper() {
    boolean inMemory = policy.inMemory();
    boolean cacheData = policy.cacheData() && cache != BlockCache.NONE;
    return new BlockSource.Wrapper() {
      @Override
      public BlockSource wrap(long fileId, BlockSource raw) {
        return cacheData ? new CachingBlockSource(cache, fileId, raw, inMemory) : raw;
      }

      @Override
      public void fileClosed(long fileId) {
        cache.evictFile(fileId);
      }
    };
  }

  /**
   * What a flush's writer does with each data block it writes (cache-on-write), or null when the
   * family does not cache data blocks on write.
   */
  public Consumer<Block> onFlushedBlock(long fileId) {
    if (!policy.cacheOnWrite() || !policy.cacheData() || cache == BlockCache.NONE) {
      return null;
    }
    boolean inMemory = policy.inMemory();
    return b -> cache.putWritten(new BlockKey(fileId, b.offset()),
        new CachedBlock(BlockKind.DATA, b.onDiskSize(), b.payload()), inMemory);
  }

  /** Drops what was cached for a file that will not exist (an aborted flush). */
  public void forget(long fileId) {
    cache.evictFile(fileId);
  }
}
