package io.bellows.sstable;

/**
 * Decides when the data block being built is full; the single place that does, so every rule for
 * sizing blocks lives here. Sizes are of the uncompressed payload, counts are of cells.
 *
 * <ul>
 *   <li>Static (MAX_ENTRIES_PER_BLOCK 0, as for a family that sets BLOCKSIZE alone): a block closes
 *       once it reaches the maximum size (the family's BLOCKSIZE), so it holds at least one cell and
 *       exceeds the maximum by less than one cell.
 *   <li>Dynamic (the SAC 2024 paper's Algorithm 1, MAX_ENTRIES_PER_BLOCK above 0, the engine's
 *       default; see {@code ColumnFamilyDescriptor#maxEntriesPerBlock}): in addition, a
 *       block closes once it is past the minimum size (MIN_BLOCKSIZE) and holds more than the
 *       maximum entry count. Small cells then go to small blocks (less read amplification per
 *       point read) and large cells to large ones (fewer index entries); the minimum keeps runs of
 *       tiny cells from making tiny blocks, each of which costs an index entry and a random read.
 * </ul>
 *
 * <p>Blocks end between rows: a full block takes the rest of its last row, so that a get finds its
 * row in one block, unless the block reaches {@link #rowSplitSize()} first (a very wide row), where
 * it closes inside the row ({@link SortedFileWriter} applies this and records in the file whether
 * any row was split). Every block but the file's last is therefore at least the minimum size
 * (dynamic) and below the maximum plus the rest of one row, or twice the maximum. Immutable,
 * thread-safe.
 */
public final class BlockBoundaryPolicy {
  private final int maxSize;
  private final int minSize;
  private final int maxEntries;

  private BlockBoundaryPolicy(int maxSize, int minSize, int maxEntries) {
    if (maxSize < 1) {
      throw new IllegalArgumentException("block size must be positive, not " + maxSize);
    }
    if (maxEntries < 0) {
      throw new IllegalArgumentException("maximum entries per block must be 0 (static) or positive, not " + maxEntries);
    }
    if (maxEntries > 0 && (minSize < 1 || minSize > maxSize)) {
      throw new IllegalArgumentException("minimum block size " + minSize + " must be in [1, " + maxSize
          + "] (the maximum block size) when the maximum entries per block is set (" + maxEntries + ")");
    }
    this.maxSize = maxSize;
    this.minSize = minSize;
    this.maxEntries = maxEntries;
  }

  /** Static sizing: blocks close at {@code bytes}. */
  public static BlockBoundaryPolicy targetSize(int bytes) {
    return new BlockBoundaryPolicy(bytes, 0, 0);
  }

  /**
   * Dynamic sizing when {@code maxEntries > 0} (then {@code minSize} must be in [1, maxSize]);
   * static sizing at {@code maxSize} when {@code maxEntries == 0}, whatever {@code minSize} is.
   */
  public static BlockBoundaryPolicy of(int maxSize, int minSize, int maxEntries) {
    return maxEntries == 0 ? targetSize(maxSize) : new BlockBoundaryPolicy(maxSize, minSize, maxEntries);
  }

  /** The policy of files written with {@code options}. */
  public static BlockBoundaryPolicy of(SortedFileOptions options) {
    return of(options.blockSize(), options.minBlockSize(), options.maxEntriesPerBlock());
  }

  /** The maximum (static: the target) uncompressed block size. */
  public int targetSize() {
    return maxSize;
  }

  public boolean isDynamic() {
    return maxEntries > 0;
  }

  /** The minimum size of a block closed by its entry count; 0 in static mode. */
  public int minSize() {
    return minSize;
  }

  /** The entry count a block past the minimum size may not exceed; 0 in static mode. */
  public int maxEntries() {
    return maxEntries;
  }

  /**
   * Whether a block with {@code uncompressedBytes} of entries and {@code entryCount} entries (after
   * the latest append) should be closed now.
   */
  public boolean isFull(int uncompressedBytes, int entryCount) {
    if (entryCount == 0) {
      return false;
    }
    if (uncompressedBytes >= maxSize) {
      return true;
    }
    return maxEntries > 0 && uncompressedBytes > minSize && entryCount > maxEntries;
  }

  /**
   * The size at which a full block closes even inside a row: twice the maximum, so that a row
   * wider than that is split into blocks of about this size rather than read as one huge block.
   */
  public long rowSplitSize() {
    return 2L * maxSize;
  }

  @Override
  public String toString() {
    return isDynamic() ? "dynamic(min=" + minSize + ", max=" + maxSize + ", maxEntries=" + maxEntries + ")"
        : "static(" + maxSize + ")";
  }
}
