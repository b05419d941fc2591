package io.bellows.sstable;

import io.bellows.config.BloomType;
import io.bellows.config.Compression;

/**
 * How a sorted file is written: data block size (the maximum; with a maximum entry count above 0,
 * also a minimum size and the entry count of the dynamic block size, see {@link
 * BlockBoundaryPolicy}), compression, Bloom filter type and
 * false-positive rate, expected cell count (a sizing hint), index block size (small values force
 * a multi-level index), creation time (-1 = the writer reads the clock at finish), and whether the
 * file is the output of a major compaction. Immutable.
 *
 * <p>Built from values only: a store's family settings ({@code BLOCKSIZE}, {@code MIN_BLOCKSIZE}, {@code
 * MAX_ENTRIES_PER_BLOCK}, {@code COMPRESSION},
 * {@code BLOOMFILTER}, {@code BLOOMFILTER_ERROR_RATE}) are resolved once, when the store is opened,
 * into a template that each flush or compaction copies with {@link #toBuilder()}. The builder's
 * defaults are those settings' defaults (a test keeps them equal).
 */
public final class SortedFileOptions {
  private final int blockSize;
  private final int minBlockSize;
  private final int maxEntriesPerBlock;
  private final Compression compression;
  private final BloomType bloomType;
  private final double bloomErrorRate;
  private final long expectedCellCount;
  private final int indexBlockSize;
  private final long creationTimeMillis;
  private final boolean majorCompaction;

  private SortedFileOptions(Builder b) {
    this.blockSize = b.blockSize;
    this.minBlockSize = b.minBlockSize;
    this.maxEntriesPerBlock = b.maxEntriesPerBlock;
    this.compression = b.compression;
    this.bloomType = b.bloomType;
    this.bloomErrorRate = b.bloomErrorRate;
    this.expectedCellCount = b.expectedCellCount;
    this.indexBlockSize = b.indexBlockSize;
    this.creationTimeMillis = b.creationTimeMillis;
    this.majorCompaction = b.majorCompaction;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these options, to change the per-file ones (expected cells, major flag). */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.blockSize = blockSize;
    b.minBlockSize = minBlockSize;
    b.maxEntriesPerBlock = maxEntriesPerBlock;
    b.compression = compression;
    b.bloomType = bloomType;
    b.bloomErrorRate = bloomErrorRate;
    b.expectedCellCount = expectedCellCount;
    b.indexBlockSize = indexBlockSize;
    b.creationTimeMillis = creationTimeMillis;
    b.majorCompaction = majorCompaction;
    return b;
  }

  /** The maximum uncompressed data block size (the only one in static mode). */
  public int blockSize() {
    return blockSize;
  }

  /** Dynamic mode: a block past this size closes once it holds more than {@link #maxEntriesPerBlock()} cells. */
  public int minBlockSize() {
    return minBlockSize;
  }

  /** The paper's MaxNumData; 0 sizes blocks by {@link #blockSize()} alone (static mode). */
  public int maxEntriesPerBlock() {
    return maxEntriesPerBlock;
  }

  public Compression compression() {
    return compression;
  }

  public BloomType bloomType() {
    return bloomType;
  }

  public double bloomErrorRate() {
    return bloomErrorRate;
  }

  public long expectedCellCount() {
    return expectedCellCount;
  }

  public int indexBlockSize() {
    return indexBlockSize;
  }

  public long creationTimeMillis() {
    return creationTimeMillis;
  }

  public boolean majorCompaction() {
    return majorCompaction;
  }

  /**
   * Builder with the family settings' defaults (64 KiB blocks, static sizing with a 4 KiB minimum
   * for dynamic sizing, no compression, a row Bloom filter at 1% false positives) and a 64 KiB index
   * block.
   */
  public static final class Builder {
    private int blockSize = 64 * 1024;
    private int minBlockSize = 4 * 1024;
    private int maxEntriesPerBlock;
    private Compression compression = Compression.LZ4;
    private BloomType bloomType = BloomType.ROW;
    private double bloomErrorRate = 0.01;
    private long expectedCellCount = 1024;
    private int indexBlockSize = 64 * 1024;
    private long creationTimeMillis = -1;
    private boolean majorCompaction;

    public Builder blockSize(int bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("block size must be positive, not " + bytes);
      }
      this.blockSize = bytes;
      return this;
    }

    public Builder minBlockSize(int bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("minimum block size must be positive, not " + bytes);
      }
      this.minBlockSize = bytes;
      return this;
    }

    /** Above 0, sizes blocks dynamically (see {@link BlockBoundaryPolicy}); 0 is static sizing. */
    public Builder maxEntriesPerBlock(int cells) {
      if (cells < 0) {
        throw new IllegalArgumentException("maximum entries per block must not be negative, not " + cells);
      }
      this.maxEntriesPerBlock = cells;
      return this;
    }

    public Builder compression(Compression c) {
      this.compression = c;
      return this;
    }

    public Builder bloomType(BloomType t) {
      this.bloomType = t;
      return this;
    }

    public Builder bloomErrorRate(double p) {
      if (!(p > 0 && p < 1)) {
        throw new IllegalArgumentException("Bloom error rate must be in (0, 1), not " + p);
      }
      this.bloomErrorRate = p;
      return this;
    }

    public Builder expectedCellCount(long n) {
      this.expectedCellCount = Math.max(0, n);
      return this;
    }

    public Builder indexBlockSize(int bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("index block size must be positive, not " + bytes);
      }
      this.indexBlockSize = bytes;
      return this;
    }

    /** Fixes the creation time recorded in the metadata (tests use it for byte-exact files). */
    public Builder creationTimeMillis(long millis) {
      this.creationTimeMillis = millis;
      return this;
    }

    public Builder majorCompaction(boolean major) {
      this.majorCompaction = major;
      return this;
    }

    /** Throws {@link IllegalArgumentException} if dynamic sizing has a minimum above the maximum. */
    public SortedFileOptions build() {
      BlockBoundaryPolicy.of(blockSize, minBlockSize, maxEntriesPerBlock); // validates the combination
      return new SortedFileOptions(this);
    }
  }
}
