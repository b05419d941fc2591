package io.bellows.sstable;

/**
 * Where a sorted-file reader gets its data blocks. The file implementation ({@link FileBlockSource})
 * reads with positional reads, verifies the checksum and decompresses; a block cache wraps it
 * ({@link CachingBlockSource}) keyed by (file number, offset): file numbers are engine-wide, never
 * handed out twice in one engine instance, and each engine instance has its own cache. Implementations must be thread-safe: scanners of one reader call it
 * concurrently.
 */
public interface BlockSource {
  /**
   * Returns the verified, decompressed block that starts at {@code offset} and occupies {@code
   * onDiskSize} bytes. Throws {@link io.bellows.util.CorruptionException} naming the file and offset
   * if the block fails a check, {@link io.bellows.util.StorageException} on an I/O error.
   */
  Block read(long offset, int onDiskSize);

  /**
   * A point read's first step: runs {@code reader} over the data block at {@code offset} where a
   * cache holds it (off the heap: without copying the block, see {@link
   * io.bellows.cache.PayloadReader}), or returns null when no cache holds it (a miss, counted); the
   * caller then reads it with {@link #readMissed}. Without a cache: always null.
   */
  default <T> io.bellows.cache.InPlaceRead<T> readCached(long offset, int onDiskSize,
      io.bellows.cache.PayloadReader<T> reader) {
    return null;
  }

  /** After {@link #readCached} missed: the block from the file, offered to the cache as {@link #read} offers it. */
  default Block readMissed(long offset, int onDiskSize) {
    return read(offset, onDiskSize);
  }

  /**
   * Builds the source a reader uses from the raw file source; the seam where a block cache plugs
   * in. The identity wrapper reads straight from the file.
   */
  @FunctionalInterface
  interface Wrapper {
    Wrapper IDENTITY = (fileId, raw) -> raw;

    BlockSource wrap(long fileId, BlockSource raw);

    /**
     * Called when a reader released its last reference: the file is closed (its store closed, its
     * table disabled or dropped) or deleted (compacted away). A cache drops the file's blocks, so
     * nothing of a gone file stays behind.
     */
    default void fileClosed(long fileId) {}
  }
}
