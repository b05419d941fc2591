package io.bellows.memstore;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A row Bloom filter that the active segment's writers fill concurrently, so that a get of a row the
 * active segment does not hold skips the segment's skiplist search (the way RocksDB's memtable
 * whole-key filter does). Same row hash as {@link SegmentRowFilter} (xxHash64, seed 0), but
 * blocked: the high half of the hash picks a 512-bit block (one cache line), and seven 9-bit slices
 * of the hash times the 64-bit golden ratio pick the bits in it, so an add or a test touches one
 * cache line. Unlike {@link SegmentRowFilter}, sized in advance, from the number of rows the segment
 * is expected to hold before its in-memory flush, since the rows are not known yet. A segment
 * holding more rows than that only gets more false positives.
 *
 * <p>Thread-safety: writers set bits with an atomic OR (two writers setting bits of one word must
 * not lose either); bits are never cleared. A writer adds a cell's row before the cell enters the
 * index, and a reader can see a write only after the write's sequence id became visible, which
 * happens after the insert: so the reader sees the row's bits (no false negative for any cell the
 * reader may see).
 */
final class ActiveRowFilter {
  private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);
  /** Bits per expected row and probes: about a 1% false-positive rate at the expected row count. */
  private static final int BITS_PER_ROW = 10;
  private static final int HASH_COUNT = 7;
  /** One 512-bit block (a 64-byte cache line) holds all of a row's probes. */
  private static final int BLOCK_WORDS = 8;
  private static final int BLOCK_BITS = BLOCK_WORDS * 64;
  /** At most 1 MiB of bits, whatever the expected row count: beyond, false positives only grow. */
  private static final long MAX_WORDS = 1L << 17;

  private final long[] words;
  private final long blocks;

  ActiveRowFilter(long expectedRows) {
    long words = wordCount(expectedRows);
    this.words = new long[(int) words];
    this.blocks = words / BLOCK_WORDS;
  }

  private static long wordCount(long expectedRows) {
    long words = Math.min(MAX_WORDS, Math.max(16, (Math.max(1, expectedRows) * BITS_PER_ROW + 63) / 64));
    return (words + BLOCK_WORDS - 1) / BLOCK_WORDS * BLOCK_WORDS;
  }

  /** Adds the row {@code row[off, off + len)}. */
  void addRow(byte[] row, int off, int len) {
    long h = SegmentRowFilter.hash(row, off, len);
    int base = blockOf(h);
    long g = h * 0x9E3779B97F4A7C15L; // the in-block positions, from other bits than the block's
    for (int i = 0; i < HASH_COUNT; i++) {
      int bit = (int) (g >>> (9 * i)) & (BLOCK_BITS - 1);
      int w = base + (bit >>> 6);
      long mask = 1L << bit;
      // A hot row's bits are set already: no atomic write then. An acquiring read, so that a bit
      // seen set by another writer is visible to whoever sees this writer's write.
      if (((long) WORDS.getAcquire(words, w) & mask) == 0) {
        WORDS.getAndBitwiseOr(words, w, mask);
      }
    }
  }

  /** False only if no row {@code row} was added. */
  boolean mightContain(byte[] row) {
    return mightContainHash(SegmentRowFilter.hash(row, 0, row.length));
  }

  /** {@link #mightContain} of the row whose xxHash64 is {@code h}. */
  boolean mightContainHash(long h) {
    int base = blockOf(h);
    long g = h * 0x9E3779B97F4A7C15L;
    for (int i = 0; i < HASH_COUNT; i++) {
      int bit = (int) (g >>> (9 * i)) & (BLOCK_BITS - 1);
      if ((words[base + (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  /** The first word of the row's block: the high half of the hash mapped onto the blocks. */
  private int blockOf(long h) {
    return (int) (((h >>> 32) * blocks) >>> 32) * BLOCK_WORDS;
  }

  /** A copy of the bits, for tests. */
  long[] bits() {
    return words.clone();
  }

  /** Heap bytes of the filter: the bit array (16-byte header) plus this object (32). */
  long heapBytes() {
    return MemoryLayout.align(16 + 8L * words.length) + 32;
  }

  /** What {@link #heapBytes()} says of a filter sized for {@code expectedRows}. */
  static long heapBytesFor(long expectedRows) {
    return MemoryLayout.align(16 + 8L * wordCount(expectedRows)) + 32;
  }
}
