package io.bellows.region;

import io.bellows.cache.BlockCache;
import io.bellows.cache.CachePolicy;
import io.bellows.cache.TieredBlockCache;
import io.bellows.kvcache.BoundedCaches;
import io.bellows.kvcache.KvCache;
import io.bellows.kvcache.KvCachingBlockCache;
import io.bellows.compaction.CompactionOptions;
import io.bellows.config.Compression;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.memstore.MemStoreOptions;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.memstore.chunk.DefaultChunkSize;
import io.bellows.scan.Retention;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.sstable.SortedFileOptions;
import io.bellows.store.StoreOptions;
import io.bellows.wal.WalOptions;

/**
 * The one place where settings (engine options, table and family descriptors) are read for the
 * layers below the region: each method turns them into the typed, immutable options record of one
 * component, once, when that component is built (a store when its region opens, the WAL and the
 * chunk allocator when the engine opens). The write and read paths then read only the records; no
 * class below this package looks a knob up (checked by {@code arch.LayeringTest}).
 *
 * <p>Stateless; thread-safe.
 */
public final class OptionsResolver {
  private OptionsResolver() {}

  /** Everything a store of {@code family} in {@code table} needs. */
  public static StoreOptions store(EngineOptions engine, TableDescriptor table, ColumnFamilyDescriptor family) {
    Compression flushed = family.get(Knobs.COMPRESSION);
    Compression compacted = family.get(Knobs.COMPRESSION_COMPACT).or(flushed);
    return new StoreOptions(table.flushSize(), memStore(family), sortedFiles(family),
        family.get(Knobs.COMPRESSION_COMPACT_MINOR).or(compacted), family.get(Knobs.COMPRESSION_COMPACT_MAJOR).or(compacted),
        compaction(engine), retention(family), cachePolicy(engine, family));
  }

  /** The family's {@code BLOCKCACHE} and {@code IN_MEMORY} with the engine's cache-on-write setting. */
  public static CachePolicy cachePolicy(EngineOptions engine, ColumnFamilyDescriptor family) {
    return new CachePolicy(family.get(Knobs.BLOCKCACHE), family.get(Knobs.IN_MEMORY),
        engine.get(Knobs.BLOCKCACHE_CACHE_ON_WRITE),
        family.get(Knobs.KVCACHE) && family.get(Knobs.BLOCKCACHE) && engine.get(Knobs.KVCACHE_INITIAL_SIZE) > 0
            && engine.get(Knobs.KVCACHE_MAX_FRACTION) > 0);
  }

  /**
   * The engine's block cache from {@code bellows.blockcache.*}: an L1 of {@link #l1Bytes} heap bytes
   * and an L2 of {@link #l2Bytes} direct bytes; none if both are 0.
   */
  public static BlockCache blockCache(EngineOptions engine, long maxHeap) {
    long l1 = l1Bytes(engine, maxHeap);
    long kvInitial = kvCacheInitialBytes(engine, l1);
    long reserved = kvInitial == 0 ? 0 : KvCache.firstReservation(l1, kvInitial);
    BlockCache blocks = TieredBlockCache.create(l1 - reserved, l2Bytes(engine, maxHeap),
        engine.get(Knobs.BLOCKCACHE_L1_ADMISSION));
    if (kvInitial == 0) {
      return blocks;
    }
    KvCache kv = new KvCache(
        listener -> BoundedCaches.create(engine.get(Knobs.KVCACHE_POLICY), kvInitial,
            engine.get(Knobs.KVCACHE_WEIGHT_FREQUENCY_EXPONENT), engine.get(Knobs.KVCACHE_WEIGHT_SIZE_EXPONENT),
            listener),
        ((TieredBlockCache) blocks).l1(), reserved, kvInitial, (long) (l1 * engine.get(Knobs.KVCACHE_MAX_FRACTION)),
        engine.get(Knobs.KVCACHE_PROMOTE_MIN_ACCESSES));
    return new KvCachingBlockCache(blocks, kv);
  }

  /**
   * The KV cache's share of L1's budget at open: {@code bellows.kvcache.initial.size}, at most
   * {@code max.fraction} of the budget; 0 (no KV cache) without an L1, whose budget it shares.
   */
  static long kvCacheInitialBytes(EngineOptions engine, long l1Bytes) {
    long max = (long) (l1Bytes * engine.get(Knobs.KVCACHE_MAX_FRACTION));
    if (l1Bytes <= 0 || max <= 0) {
      return 0;
    }
    return Math.min(engine.get(Knobs.KVCACHE_INITIAL_SIZE), max);
  }

  /** The L1 block cache's size: {@code l1.size} bytes, or {@code l1.fraction} of {@code maxHeap}. */
  public static long l1Bytes(EngineOptions engine, long maxHeap) {
    long l1 = engine.get(Knobs.BLOCKCACHE_L1_SIZE);
    return l1 > 0 ? l1 : (long) (maxHeap * engine.get(Knobs.BLOCKCACHE_L1_FRACTION));
  }

  /**
   * The off-heap L2 block cache's size: {@code l2.size} bytes, or {@code l2.fraction} of {@code
   * maxHeap} (sized from the heap, as the on-heap cache it took the data blocks from was).
   */
  public static long l2Bytes(EngineOptions engine, long maxHeap) {
    long l2 = engine.get(Knobs.BLOCKCACHE_L2_SIZE);
    return l2 > 0 ? l2 : (long) (maxHeap * engine.get(Knobs.BLOCKCACHE_L2_FRACTION));
  }

  /** The memory store's settings from the family's memory knobs. */
  public static MemStoreOptions memStore(ColumnFamilyDescriptor family) {
    return new MemStoreOptions(
        family.get(Knobs.IN_MEMORY_COMPACTION),
        family.get(Knobs.IN_MEMORY_FLUSH_FRACTION),
        family.get(Knobs.PIPELINE_MAX_SEGMENTS),
        family.get(Knobs.ADAPTIVE_THRESHOLD),
        family.get(Knobs.ACTIVE_INDEX),
        family.get(Knobs.SEGMENT_INDEX),
        family.get(Knobs.MSLAB),
        family.get(Knobs.SEGMENT_ROW_FILTER));
  }

  /**
   * How the family's sorted files are written ({@code BLOCKSIZE}, {@code MIN_BLOCKSIZE}, {@code
   * MAX_ENTRIES_PER_BLOCK}, {@code COMPRESSION}, {@code
   * BLOOMFILTER}, {@code BLOOMFILTER_ERROR_RATE}); a template each write copies.
   */
  public static SortedFileOptions sortedFiles(ColumnFamilyDescriptor family) {
    return SortedFileOptions.builder()
        .blockSize(family.get(Knobs.BLOCKSIZE))
        .minBlockSize(family.get(Knobs.MIN_BLOCKSIZE))
        .maxEntriesPerBlock(family.maxEntriesPerBlock())
        .compression(family.get(Knobs.COMPRESSION))
        .bloomType(family.get(Knobs.BLOOMFILTER))
        .bloomErrorRate(family.get(Knobs.BLOOMFILTER_ERROR_RATE))
        .build();
  }

  /** Minor-compaction selection from the engine's {@code bellows.compaction.*} and blocking-file settings. */
  public static CompactionOptions compaction(EngineOptions engine) {
    return new CompactionOptions(
        engine.get(Knobs.COMPACTION_MIN_FILES),
        engine.get(Knobs.COMPACTION_MAX_FILES),
        engine.get(Knobs.COMPACTION_RATIO),
        engine.get(Knobs.BLOCKING_STORE_FILES));
  }

  /** The family's {@code VERSIONS}, {@code MIN_VERSIONS} and {@code TTL} (seconds, made milliseconds). */
  public static Retention retention(ColumnFamilyDescriptor family) {
    return new Retention(family.maxVersions(), family.minVersions(), family.ttlMillis());
  }

  /** The WAL's settings from the engine's {@code bellows.wal.*} knobs. */
  public static WalOptions wal(EngineOptions engine) {
    return new WalOptions(engine.get(Knobs.WAL_ROLL_SIZE), engine.get(Knobs.WAL_ASYNC_SYNC_PERIOD_MS));
  }

  /**
   * A new chunk allocator configured by the engine's {@code bellows.mslab.*} knobs; the chunk size is
   * rounded down to a multiple of 8 so that skiplist nodes (multiples of 8 bytes) stay aligned. A
   * chunk size of 0 is {@link DefaultChunkSize#forThisJvm()}.
   */
  public static ChunkAllocator chunkAllocator(EngineOptions engine) {
    long size = chunkSize(engine);
    return new ChunkAllocator((int) (size & ~7L), engine.get(Knobs.CHUNK_POOL_MAX_BYTES),
        engine.get(Knobs.CHUNK_OFF_HEAP), engine.get(Knobs.CHUNK_POOLED_TAILS));
  }

  /** The chunk size the engine's knobs give: the knob, or the JVM's default when it is 0. */
  public static long chunkSize(EngineOptions engine) {
    long size = engine.get(Knobs.CHUNK_SIZE);
    return size == 0 ? DefaultChunkSize.forThisJvm() : size;
  }
}
