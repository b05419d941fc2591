package io.bellows.sstable;

/**
 * Where a sorted-file reader gets its blocks. The file implementation ({@link FileBlockSource})
 * reads with positional reads, verifies the checksum and decompresses; a block cache wraps it keyed
 * by (engine instance id, file id, offset): file ids are numbered engine-wide, unique across the
 * stores of a data directory, and the instance id (one per open) keeps apart the files of other
 * engines and of earlier opens. Implementations must be thread-safe: scanners of one reader call it
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
   * Builds the source a reader uses from the raw file source; the seam where a block cache plugs
   * in. The identity wrapper reads straight from the file.
   */
  @FunctionalInterface
  interface Wrapper {
    Wrapper IDENTITY = (fileId, raw) -> raw;

    BlockSource wrap(long fileId, BlockSource raw);
  }
}
