package io.bellows.kvcache;

import io.bellows.cache.BlockCache;
import io.bellows.cache.BlockKey;
import io.bellows.cache.BlockKind;
import io.bellows.cache.CachedBlock;
import io.bellows.cache.InPlaceRead;
import io.bellows.cache.PayloadReader;
import java.util.Map;
import java.util.TreeMap;

/**
 * The engine's read caches as one {@link BlockCache}: the block caches, and the KV cache above them,
 * which learns from the same call when a file is gone (its rows leave with its blocks).
 */
public final class KvCachingBlockCache implements BlockCache {
  private final BlockCache blocks;
  private final KvCache kv;

  public KvCachingBlockCache(BlockCache blocks, KvCache kv) {
    this.blocks = blocks;
    this.kv = kv;
  }

  public KvCache kvCache() {
    return kv;
  }

  @Override
  public CachedBlock get(BlockKey key, BlockKind kind) {
    return blocks.get(key, kind);
  }

  @Override
  public <T> InPlaceRead<T> readInPlace(BlockKey key, BlockKind kind, PayloadReader<T> reader) {
    return blocks.readInPlace(key, kind, reader);
  }

  @Override
  public void put(BlockKey key, CachedBlock block, boolean inMemory) {
    blocks.put(key, block, inMemory);
  }

  @Override
  public void putWritten(BlockKey key, CachedBlock block, boolean inMemory) {
    blocks.putWritten(key, block, inMemory);
  }

  @Override
  public void evictFile(long file) {
    blocks.evictFile(file);
    kv.evictFile(file);
  }

  @Override
  public Map<String, Number> metrics() {
    Map<String, Number> m = new TreeMap<>(blocks.metrics());
    m.putAll(kv.metrics());
    return m;
  }

  @Override
  public void close() {
    blocks.close();
  }
}
