package io.bellows.bench;

import java.util.SplittableRandom;

/**
 * User sessions after the CBMG (customer behaviour model graph) workload of the SAC 2024 paper's
 * production experiment (§5.1): each request of a session goes to a neighbour of one of the
 * session's recent keys (spatial locality: the next page of what the user just read), to a hot key
 * (a Zipf θ 0.99 rank among {@code hotKeys}, scattered over the key space), or to a new key drawn
 * uniformly; sessions end at random (geometric, mean {@code meanSessionLength} requests).
 *
 * <p>Items are positions in key order, 0 ≤ item < {@code keySpace}: the caller maps them to row keys
 * that sort like the items, so "neighbour" means adjacent rows. Seeded, deterministic; not
 * thread-safe (each client thread owns one).
 */
public final class CbmgKeys {
  /** The defaults: the paper does not publish its graph's probabilities, so these are ours. */
  public static final double DEFAULT_P_NEAR = 0.3;
  public static final double DEFAULT_P_HOT = 0.6;
  public static final int DEFAULT_MEAN_SESSION = 20;
  /** How far (in rows, either side) a neighbour request goes from a recent key. */
  public static final int NEIGHBOURHOOD = 8;
  private static final int RECENT = 4;

  private final long keySpace;
  private final double pNear;
  private final double pHot;
  private final double pEnd;
  private final ZipfKeys hot;
  private final SplittableRandom random;
  private final long[] recent = new long[RECENT];
  private int recentCount;
  private int recentNext;

  public CbmgKeys(long keySpace, long hotKeys, double pNear, double pHot, int meanSessionLength, long seed) {
    if (keySpace < 2 || hotKeys < 2 || hotKeys > keySpace) {
      throw new IllegalArgumentException("need 2 <= hot keys <= key space: " + hotKeys + ", " + keySpace);
    }
    if (pNear < 0 || pHot < 0 || pNear + pHot > 1) {
      throw new IllegalArgumentException("probabilities must be >= 0 and sum to at most 1: " + pNear + ", " + pHot);
    }
    if (meanSessionLength < 1) {
      throw new IllegalArgumentException("mean session length must be positive: " + meanSessionLength);
    }
    this.keySpace = keySpace;
    this.pNear = pNear;
    this.pHot = pHot;
    this.pEnd = 1.0 / meanSessionLength;
    this.hot = new ZipfKeys(hotKeys, ZipfKeys.DEFAULT_THETA, seed ^ 0x9E3779B97F4A7C15L);
    this.random = new SplittableRandom(seed);
  }

  /** The item of the next request. */
  public long next() {
    if (random.nextDouble() < pEnd) {
      recentCount = 0; // a new session: no recent keys to be near
    }
    double p = random.nextDouble();
    long item;
    if (p < pNear && recentCount > 0) {
      long base = recent[random.nextInt(recentCount)];
      long offset = random.nextInt(2 * NEIGHBOURHOOD + 1) - NEIGHBOURHOOD;
      item = Math.floorMod(base + offset, keySpace);
    } else if (p < pNear + pHot) {
      item = Math.floorMod(KeyMixer.mix(hot.nextRank()), keySpace);
    } else {
      item = random.nextLong(keySpace);
    }
    recent[recentNext] = item;
    recentNext = (recentNext + 1) % RECENT;
    recentCount = Math.min(RECENT, recentCount + 1);
    return item;
  }
}
