package io.bellows.memstore;

import io.bellows.util.BlockedBloomBits;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A row Bloom filter that the active segment's writers fill concurrently, so that a get of a row the
 * active segment does not hold skips the segment's skiplist search (the way RocksDB's memtable
 * whole-key filter does). Same row hash and blocked layout as {@link SegmentRowFilter} ({@link
 * BlockedBloomBits}: an add or a test touches one cache line). Unlike {@link SegmentRowFilter},
 * sized in advance, from the number of rows the segment is expected to hold before its in-memory
 * flush, since the rows are not known yet. A segment holding more rows than that only gets more
 * false positives.
 *
 * <p>Thread-safety: writers set bits with an atomic OR (two writers setting bits of one word must
 * not lose either); bits are never cleared. A writer adds a cell's row before the cell enters the
 * index, and a reader can see a write only after the write's sequence id became visible, which
 * happens after the insert: so the reader sees the row's bits (no false negative for any cell the
 * reader may see).
 */
final class ActiveRowFilter {
  private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);
  /** At most 1 MiB of bits, whatever the expected row count: beyond, false positives only grow. */
  private static final long MAX_WORDS = 1L << 17;

  private final long[] words;
  private final long blocks;

  ActiveRowFilter(long expectedRows) {
    long words = BlockedBloomBits.wordsFor(expectedRows, MAX_WORDS);
    this.words = new long[(int) words];
    this.blocks = words / BlockedBloomBits.BLOCK_WORDS;
  }

  /** Adds the row {@code row[off, off + len)}. */
  void addRow(byte[] row, int off, int len) {
    long h = SegmentRowFilter.hash(row, off, len);
    int base = BlockedBloomBits.blockBase(h, blocks);
    long g = BlockedBloomBits.positions(h);
    for (int i = 0; i < BlockedBloomBits.HASH_COUNT; i++) {
      int bit = BlockedBloomBits.bit(g, i);
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
    return BlockedBloomBits.test(words, blocks, h);
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
    return MemoryLayout.align(16 + 8L * BlockedBloomBits.wordsFor(expectedRows, MAX_WORDS)) + 32;
  }
}
