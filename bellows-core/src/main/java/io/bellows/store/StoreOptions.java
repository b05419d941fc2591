package io.bellows.store;

import io.bellows.cache.CachePolicy;
import io.bellows.compaction.CompactionOptions;
import io.bellows.config.Compression;
import io.bellows.memstore.MemStoreOptions;
import io.bellows.scan.Retention;
import io.bellows.sstable.SortedFileOptions;

/**
 * A store's settings, resolved once from its table's and family's descriptors and the engine's
 * settings when the store is opened (by the region); the store and everything below it read
 * nothing else. Immutable.
 *
 * @param flushSize the table's {@code MEMSTORE_FLUSHSIZE}: the memory store is flushed to a sorted
 *     file when its footprint reaches it
 * @param memStore the memory store's settings
 * @param files how the store's sorted files are written (block size, compression, Bloom filter):
 *     a template each flush and compaction copies, setting its own expected cell count and major flag
 * @param minorCompression compression of the files minor compactions write ({@code files} gives the flushes')
 * @param majorCompression compression of the files major compactions write
 * @param compaction minor-compaction selection and the blocking file count
 * @param retention the family's version and TTL rules, for reads and rewrites
 * @param cache how the family uses the engine's block cache ({@code BLOCKCACHE}, {@code IN_MEMORY},
 *     cache-on-write)
 */
public record StoreOptions(
    long flushSize,
    MemStoreOptions memStore,
    SortedFileOptions files,
    Compression minorCompression,
    Compression majorCompression,
    CompactionOptions compaction,
    Retention retention,
    CachePolicy cache) {
  public StoreOptions {
    if (flushSize < 1) {
      throw new IllegalArgumentException("flush size must be positive: " + flushSize);
    }
    if (memStore == null || files == null || minorCompression == null || majorCompression == null
        || compaction == null || retention == null || cache == null) {
      throw new NullPointerException("every part of a store's options is required");
    }
  }

  /** The compression of a file a flush ({@code flush}), a major ({@code major}) or a minor compaction writes. */
  public Compression compressionOf(boolean flush, boolean major) {
    return flush ? files.compression() : major ? majorCompression : minorCompression;
  }

  /** Writes to the store block while it has more sorted files than this. */
  public int blockingFiles() {
    return compaction.blockingFiles();
  }
}
