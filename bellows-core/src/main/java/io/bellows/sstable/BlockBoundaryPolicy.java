package io.bellows.sstable;

/**
 * Decides when the data block being built is full. Today: once its uncompressed payload reaches the
 * target size (the family's BLOCKSIZE), so a block holds at least one cell and exceeds the target by
 * less than one cell. This is the single place that decides, so sizing blocks by content (minimum
 * size, maximum size, maximum entry count) only changes this class. Immutable, thread-safe.
 */
public final class BlockBoundaryPolicy {
  private final int targetSize;

  private BlockBoundaryPolicy(int targetSize) {
    if (targetSize < 1) {
      throw new IllegalArgumentException("block size must be positive, not " + targetSize);
    }
    this.targetSize = targetSize;
  }

  public static BlockBoundaryPolicy targetSize(int bytes) {
    return new BlockBoundaryPolicy(bytes);
  }

  public int targetSize() {
    return targetSize;
  }

  /**
   * Whether a block with {@code uncompressedBytes} of entries and {@code entryCount} entries (after
   * the latest append) should be closed now.
   */
  public boolean isFull(int uncompressedBytes, int entryCount) {
    return entryCount > 0 && uncompressedBytes >= targetSize;
  }
}
