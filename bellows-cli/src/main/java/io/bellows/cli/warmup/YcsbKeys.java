package io.bellows.cli.warmup;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * YCSB's keys and its "scrambled zipfian" request choice, so that the warm-up workload reads and
 * writes the rows a YCSB A run over the same records would: record {@code i} is the row {@code
 * "user" + fnv1a64(i)} (YCSB's hashed insert order), and a request picks a Zipf (θ = 0.99) rank over
 * ten billion items (YCSB's ζ of them precomputed), hashed and taken modulo the record count. The rank
 * comes from Gray et al.'s inversion ("Quickly generating billion-record synthetic databases", 1994).
 *
 * <p>Not thread-safe: one per client thread.
 */
final class YcsbKeys {
  private static final long ITEMS = 10_000_000_000L;
  private static final double THETA = 0.99;
  private static final double ZETA_ITEMS = 26.46902820178302; // ζ(ITEMS, θ), as YCSB precomputes it
  private static final double ZETA_2 = 1 + Math.pow(0.5, THETA);
  private static final double ALPHA = 1 / (1 - THETA);
  private static final double ETA = (1 - Math.pow(2.0 / ITEMS, 1 - THETA)) / (1 - ZETA_2 / ZETA_ITEMS);
  private static final double HALF = Math.pow(0.5, THETA);

  private final long records;
  private final SplittableRandom random;

  YcsbKeys(long records, SplittableRandom random) {
    if (records < 1) {
      throw new IllegalArgumentException("records must be at least 1: " + records);
    }
    this.records = records;
    this.random = random;
  }

  /** The record number of the next request (0 ≤ n < records). */
  long nextRecord() {
    return Math.floorMod(fnv1a64(rank(random.nextDouble())), records);
  }

  /** The row key of record {@code n}. */
  static byte[] row(long n) {
    return ("user" + fnv1a64(n)).getBytes(StandardCharsets.UTF_8);
  }

  /** The Zipf rank (0 = the most popular) of the uniform draw {@code u} in [0, 1). */
  static long rank(double u) {
    double uz = u * ZETA_ITEMS;
    if (uz < 1) {
      return 0;
    }
    if (uz < 1 + HALF) {
      return 1;
    }
    return Math.min(ITEMS - 1, (long) (ITEMS * Math.pow(ETA * u - ETA + 1, ALPHA)));
  }

  /** 64-bit FNV-1a over the 8 bytes of {@code v}, least significant first, made non-negative (as YCSB's). */
  static long fnv1a64(long v) {
    long h = 0xCBF29CE484222325L;
    for (int i = 0; i < 8; i++) {
      h ^= v & 0xff;
      h *= 1099511628211L;
      v >>>= 8;
    }
    return Math.abs(h);
  }
}
