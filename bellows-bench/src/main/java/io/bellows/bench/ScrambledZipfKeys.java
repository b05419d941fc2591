package io.bellows.bench;

/**
 * YCSB's "scrambled zipfian" row choice, with YCSB's constants: a Zipf (θ = 0.99) rank over ten
 * billion items, whose ζ is YCSB's precomputed 26.46902820178302, hashed with 64-bit FNV-1a (as
 * YCSB's {@code Utils.fnvhash64}, absolute value) and taken modulo the key space. The popularity of
 * an item therefore does not depend on the key space (the hottest item is ~3.8% of all draws
 * whatever its size), and popular items are scattered over it. The item is then passed through
 * {@link KeyMixer} so that row ids spread over the whole id range, as the pre-split regions expect.
 *
 * <p>Not thread-safe (owns its random source).
 */
final class ScrambledZipfKeys implements KeyChooser {
  /** YCSB's {@code ScrambledZipfianGenerator.ITEM_COUNT}. */
  static final long ITEM_COUNT = 10_000_000_000L;
  /** YCSB's {@code ScrambledZipfianGenerator.ZETAN}: ζ(ITEM_COUNT, 0.99). */
  static final double ZETA_N = 26.46902820178302;

  private static final long FNV_OFFSET_BASIS_64 = 0xCBF29CE484222325L;
  private static final long FNV_PRIME_64 = 1099511628211L;

  private final long keySpace;
  private final ZipfKeys ranks;

  ScrambledZipfKeys(long keySpace, long seed) {
    if (keySpace < 1) {
      throw new IllegalArgumentException("key space must be positive: " + keySpace);
    }
    this.keySpace = keySpace;
    this.ranks = new ZipfKeys(ITEM_COUNT, ZipfKeys.DEFAULT_THETA, ZETA_N, seed);
  }

  /** The item (0 ≤ item < key space) of the next draw, before mixing. */
  long nextItem() {
    return fnv1a64(ranks.nextRank()) % keySpace;
  }

  @Override
  public long nextRowId() {
    return KeyMixer.mix(nextItem());
  }

  /** FNV-1a over the 8 bytes of {@code v}, least significant first; non-negative (as YCSB's). */
  static long fnv1a64(long v) {
    long h = FNV_OFFSET_BASIS_64;
    for (int i = 0; i < 8; i++) {
      h ^= v & 0xff;
      h *= FNV_PRIME_64;
      v >>>= 8;
    }
    return Math.abs(h);
  }
}
