package io.bellows.memstore;

import io.bellows.util.BlockedBloomBits;
import io.bellows.util.XxHash;
import java.nio.ByteBuffer;

/**
 * A Bloom filter over the distinct rows of one immutable memory segment, consulted by single-row
 * reads (gets) so that a get of a row the segment does not hold skips the segment without a seek.
 * Built while a flatten, merge or compaction walks the segment's cells in order (rows arrive
 * grouped, so a row is added once, when its hash differs from the previous cell's). Beside the
 * filter it keeps each row's first position ({@link RowPositions}), so the get's seek that follows a
 * yes is a probe rather than a binary search.
 *
 * <p>Layout: {@link BlockedBloomBits}' blocks of 512 bits over one 64-bit xxHash64 (seed 0) of the
 * row bytes, so a test touches one cache line; {@link BlockedBloomBits#BITS_PER_ROW} bits per
 * distinct row, counted exactly, rounded up to whole blocks: about a 1% false-positive rate. Never
 * gives a false negative.
 *
 * <p>Thread-safety: the filter is immutable after {@link Builder#build()} and safe for concurrent
 * queries once published (it is published through the segment's final field). The builder is
 * single-threaded.
 */
final class SegmentRowFilter {
  /** Target false-positive rate: 10 bits (1.25 bytes) per distinct row, 7 probes in one cache line. */
  static final double FALSE_POSITIVE_RATE = 0.01;

  private final long[] words;
  private final long blocks;
  private final int rowCount;

  /** Where each row starts, for a get's seek (built from the same hashes). */
  private final RowPositions positions;

  private SegmentRowFilter(long[] words, int rowCount, RowPositions positions) {
    this.words = words;
    this.blocks = words.length / BlockedBloomBits.BLOCK_WORDS;
    this.rowCount = rowCount;
    this.positions = positions;
  }

  /**
   * The position of the first cell of {@code row} in {@code index} (the segment this filter was
   * built over), or -1 if the table does not find it. Gets ask after the filter
   * said the row may be there, so this does not ask it again.
   */
  int firstPosition(byte[] row, long rowHash, ImmutableIndex index) {
    return positions.first(row, rowHash, index);
  }

  static long hash(byte[] row, int off, int len) {
    return XxHash.hash64(row, off, len);
  }

  static long hash(ByteBuffer buf, int off, int len) {
    return XxHash.hash64(buf, off, len);
  }

  /** False only if no cell of {@code row} was added. */
  boolean mightContain(byte[] row) {
    return mightContainHash(hash(row, 0, row.length));
  }

  boolean mightContainHash(long h) {
    return BlockedBloomBits.test(words, blocks, h);
  }

  /** Distinct rows added. */
  int rowCount() {
    return rowCount;
  }

  int hashCount() {
    return BlockedBloomBits.HASH_COUNT;
  }

  long numBits() {
    return (long) words.length * 64;
  }

  /** Heap bytes of the filter: the bit array (16-byte header) plus this object (32), plus the row positions. */
  long heapBytes() {
    return MemoryLayout.align(16 + 8L * words.length) + 32 + (positions == null ? 0 : positions.heapBytes());
  }

  /** Heap bytes of a filter with row positions over {@code rows} distinct rows (what {@link #heapBytes()} will say). */
  static long heapBytesFor(int rows) {
    return MemoryLayout.align(16 + 8L * wordCount(rows)) + 32 + RowPositions.bytesForRows(rows);
  }

  private static long wordCount(int rows) {
    return BlockedBloomBits.wordsFor(rows, (1L << 32) / 64);
  }

  /** Collects the row hashes of a sorted run of cells, then sizes and fills the filter. */
  static final class Builder {
    private long[] hashes = new long[64];
    /** The output position of each row's first cell. */
    private int[] positions = new int[64];
    private int count;

    /**
     * Adds the row of the next cell of a sorted run, the cell being at {@code position} in the
     * output (consecutive equal rows count once, at their first cell).
     */
    void add(long rowHash, int position) {
      if (count > 0 && hashes[count - 1] == rowHash) {
        return; // same row as the previous cell (or a 64-bit collision, which sets the same bits)
      }
      if (count == hashes.length) {
        if (count == Integer.MAX_VALUE - 8) {
          throw new IllegalStateException("too many rows for a segment row filter");
        }
        int grown = (int) Math.min(Integer.MAX_VALUE - 8, 2L * count);
        hashes = java.util.Arrays.copyOf(hashes, grown);
        positions = java.util.Arrays.copyOf(positions, grown);
      }
      hashes[count] = rowHash;
      positions[count++] = position;
    }

    void addRow(byte[] row, int off, int len, int position) {
      add(hash(row, off, len), position);
    }

    /** The row of the serialized cell at {@code cellOff} in {@code buf}. */
    void addRow(ByteBuffer buf, int cellOff, int position) {
      int rowLen = buf.getShort(cellOff + 8) & 0xFFFF;
      add(hash(buf, cellOff + 10, rowLen), position);
    }

    SegmentRowFilter build() {
      SegmentRowFilter f = new SegmentRowFilter(new long[(int) wordCount(count)], count,
          new RowPositions(hashes, positions, count));
      for (int i = 0; i < count; i++) {
        BlockedBloomBits.set(f.words, f.blocks, hashes[i]);
      }
      hashes = null;
      positions = null;
      return f;
    }
  }

  @Override
  public String toString() {
    return "SegmentRowFilter(rows=" + rowCount + ", bits=" + numBits() + ", k=" + hashCount() + ")";
  }
}
