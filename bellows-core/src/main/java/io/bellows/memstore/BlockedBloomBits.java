package io.bellows.memstore;

/**
 * The bit layout the memory store's row filters share ({@link ActiveRowFilter} filled by concurrent
 * writers, {@link SegmentRowFilter} built once per flat segment): the high half of a row's xxHash64
 * picks a 512-bit block (one 64-byte cache line) of a {@code long[]}, and {@link #HASH_COUNT} 9-bit
 * slices of the hash times the 64-bit golden ratio pick the bits in it. A test or an add touches one
 * cache line, where a classic Bloom filter's probes touch one each: a get tests the filter of every
 * segment of the pipeline, and a row absent from a segment (the usual case) costs one cache miss
 * there instead of two on average. Holds no state.
 */
final class BlockedBloomBits {
  /** Probes per row: with {@link #BITS_PER_ROW} about a 1% false-positive rate. */
  static final int HASH_COUNT = 7;
  static final int BITS_PER_ROW = 10;
  /** One 512-bit block, a 64-byte cache line, holds all of a row's probes. */
  static final int BLOCK_WORDS = 8;
  private static final int BLOCK_BITS = BLOCK_WORDS * 64;
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private BlockedBloomBits() {}

  /** Words for {@code rows} rows at {@link #BITS_PER_ROW}: at least one block, at most {@code maxWords}, whole blocks. */
  static long wordsFor(long rows, long maxWords) {
    long words = Math.min(maxWords, Math.max(BLOCK_WORDS, (Math.max(1, rows) * BITS_PER_ROW + 63) / 64));
    return (words + BLOCK_WORDS - 1) / BLOCK_WORDS * BLOCK_WORDS;
  }

  /** The first word of the block of the row whose hash is {@code h}, among {@code blocks} blocks. */
  static int blockBase(long h, long blocks) {
    return (int) (((h >>> 32) * blocks) >>> 32) * BLOCK_WORDS;
  }

  /** The in-block positions of the row whose hash is {@code h}, for {@link #bit}. */
  static long positions(long h) {
    return h * GOLDEN;
  }

  /** Probe {@code i}'s bit within its block, in [0, 512). */
  static int bit(long positions, int i) {
    return (int) (positions >>> (9 * i)) & (BLOCK_BITS - 1);
  }

  /** Sets the row's bits (single-threaded). */
  static void set(long[] words, long blocks, long h) {
    int base = blockBase(h, blocks);
    long g = positions(h);
    for (int i = 0; i < HASH_COUNT; i++) {
      int bit = bit(g, i);
      words[base + (bit >>> 6)] |= 1L << bit;
    }
  }

  /** False only if the row whose hash is {@code h} was never set. */
  static boolean test(long[] words, long blocks, long h) {
    int base = blockBase(h, blocks);
    long g = positions(h);
    for (int i = 0; i < HASH_COUNT; i++) {
      int bit = bit(g, i);
      if ((words[base + (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }
}
