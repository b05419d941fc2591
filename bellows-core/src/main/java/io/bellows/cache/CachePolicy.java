package io.bellows.cache;

/**
 * How one column family uses the engine's block cache, resolved from its descriptor and the engine
 * settings when its store opens. Immutable.
 *
 * @param cacheData the family's {@code BLOCKCACHE}: data blocks are looked up in and added to the
 *     cache (false: every data block read goes to the file)
 * @param inMemory the family's {@code IN_MEMORY}: its blocks go to L1's in-memory area
 * @param cacheOnWrite {@code bellows.blockcache.cache.on.write}: data blocks a flush writes are
 *     added as they are written
 * @param kvCache the family's {@code KVCACHE}, with the engine's KV cache on: gets look rows up in the
 *     KV cache and promote hot ones to it (needs {@code cacheData})
 */
public record CachePolicy(boolean cacheData, boolean inMemory, boolean cacheOnWrite, boolean kvCache) {
  /** The knob defaults: data blocks cached on read, normal priority, nothing cached on write, KV cache on. */
  public static final CachePolicy DEFAULT = new CachePolicy(true, false, false, true);

  public CachePolicy(boolean cacheData, boolean inMemory, boolean cacheOnWrite) {
    this(cacheData, inMemory, cacheOnWrite, false);
  }
}
