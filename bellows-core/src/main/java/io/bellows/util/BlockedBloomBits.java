package io.bellows.util;

/**
 * The blocked Bloom filter layout that the memory store's row filters and the sorted files' Bloom
 * blocks share: the high half of a key's 64-bit hash picks a 512-bit block (one 64-byte cache line)
 * of a {@code long[]}, and up to {@link #MAX_HASH_COUNT} 9-bit slices of the hash times the 64-bit
 * golden ratio pick the bits in it. A test or an add touches one cache line, where a classic Bloom
 * filter's probes touch one each: a get tests the filter of every memory segment and every file of
 * its family, and a key absent from one (the usual case) costs one cache miss there instead of two on
 * average, a key present one instead of k. The price is a slightly higher false-positive rate at
 * the same bits per key (blocks fill unevenly). Holds no state.
 */
public final class BlockedBloomBits {
  /** Probes per row of the memory store's filters: with {@link #BITS_PER_ROW} about a 1% false-positive rate. */
  public static final int HASH_COUNT = 7;
  /** Bits per row of the memory store's filters. */
  public static final int BITS_PER_ROW = 10;
  /** The most probes a key may have: seven 9-bit slices of one 64-bit product. */
  public static final int MAX_HASH_COUNT = 7;
  /** One 512-bit block, a 64-byte cache line, holds all of a key's probes. */
  public static final int BLOCK_WORDS = 8;
  public static final int BLOCK_BITS = BLOCK_WORDS * 64;
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private BlockedBloomBits() {}

  /** Words for {@code rows} rows at {@link #BITS_PER_ROW}: at least one block, at most {@code maxWords}, whole blocks. */
  public static long wordsFor(long rows, long maxWords) {
    long words = Math.min(maxWords, Math.max(BLOCK_WORDS, (Math.max(1, rows) * BITS_PER_ROW + 63) / 64));
    return (words + BLOCK_WORDS - 1) / BLOCK_WORDS * BLOCK_WORDS;
  }

  /** The first word of the block of the key whose hash is {@code h}, among {@code blocks} blocks (fewer than 2^32). */
  public static int blockBase(long h, long blocks) {
    return (int) (((h >>> 32) * blocks) >>> 32) * BLOCK_WORDS;
  }

  /** The in-block positions of the key whose hash is {@code h}, for {@link #bit}. */
  public static long positions(long h) {
    return h * GOLDEN;
  }

  /** Probe {@code i}'s bit within its block, in [0, 512). */
  public static int bit(long positions, int i) {
    return (int) (positions >>> (9 * i)) & (BLOCK_BITS - 1);
  }

  /** Sets the key's {@link #HASH_COUNT} bits (single-threaded). */
  public static void set(long[] words, long blocks, long h) {
    set(words, blocks, h, HASH_COUNT);
  }

  /** Sets the key's first {@code hashCount} bits (single-threaded). */
  public static void set(long[] words, long blocks, long h, int hashCount) {
    int base = blockBase(h, blocks);
    long g = positions(h);
    for (int i = 0; i < hashCount; i++) {
      int bit = bit(g, i);
      words[base + (bit >>> 6)] |= 1L << bit;
    }
  }

  /** False only if the key whose hash is {@code h} was never set with {@link #HASH_COUNT} probes. */
  public static boolean test(long[] words, long blocks, long h) {
    return test(words, blocks, h, HASH_COUNT);
  }

  /** False only if the key whose hash is {@code h} was never set with {@code hashCount} probes. */
  public static boolean test(long[] words, long blocks, long h, int hashCount) {
    int base = blockBase(h, blocks);
    long g = positions(h);
    for (int i = 0; i < hashCount; i++) {
      int bit = bit(g, i);
      if ((words[base + (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * The false-positive rate to expect of {@code keys} keys in {@code blocks} blocks with {@code
   * hashCount} probes: keys land in blocks as a Poisson process, and a block that holds j keys
   * answers yes to a stranger with the probability a classic 512-bit filter of j keys would.
   */
  public static double expectedFalsePositiveRate(long keys, long blocks, int hashCount) {
    double mean = (double) keys / blocks;
    int last = (int) Math.ceil(mean + 12 * Math.sqrt(mean) + 12);
    double logP = -mean; // the log of the Poisson probability of j keys, j = 0 (logs: no underflow)
    double rate = 0;
    for (int j = 0; j <= last; j++) {
      if (j > 0) {
        logP += Math.log(mean) - Math.log(j);
      }
      double p = Math.exp(logP);
      double bitSet = 1 - Math.pow(1 - 1.0 / BLOCK_BITS, (double) hashCount * j);
      rate += p * Math.pow(bitSet, hashCount);
    }
    return rate;
  }
}
