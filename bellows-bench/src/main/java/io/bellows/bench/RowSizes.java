package io.bellows.bench;

/**
 * Heavy-tailed row sizes, as the SAC 2024 paper's data sets: most rows small, a few large. A bounded
 * Pareto law between {@link #MIN} and {@link #MAX} bytes whose shape puts 80% of rows at or under
 * 256 B (α = ln 5 / ln 8 ≈ 0.774); then about 0.8% of rows exceed 16 KiB and the mean is about
 * 500 B. (The paper's production cluster: over 80% of key-values under 4 KiB, under 10% over 16 KiB;
 * its YCSB runs: most at or under 256 B, up to 64 KiB.)
 *
 * <p>A row's size is a function of its id alone, so a load, its later updates and every reader agree
 * on it without sharing state; stateless and thread-safe.
 */
public final class RowSizes {
  public static final int MIN = 32;
  public static final int MAX = 64 * 1024;
  /** Share of rows at or under 256 bytes. */
  static final double SMALL_SHARE = 0.8;
  static final double ALPHA = Math.log(1 / (1 - SMALL_SHARE)) / Math.log(256.0 / MIN);

  private static final double TAIL = Math.pow((double) MIN / MAX, ALPHA);

  private RowSizes() {}

  /** The size in bytes of row {@code id}'s value, in [MIN, MAX]. */
  public static int of(long id) {
    // 53 well-mixed bits as a uniform u in [0, 1), through the bounded Pareto's inverse CDF.
    double u = (KeyMixer.mix(id ^ 0x5DEECE66DL) >>> 11) * 0x1.0p-53;
    double x = MIN / Math.pow(1 - u * (1 - TAIL), 1 / ALPHA);
    return (int) Math.min(MAX, Math.max(MIN, Math.round(x)));
  }
}
