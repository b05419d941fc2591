package io.bellows.bench;

import java.util.SplittableRandom;

/**
 * Zipf-distributed row ids over {@code n} rows: rank {@code k} (0-based) is drawn with probability
 * proportional to {@code 1 / (k + 1)^θ}. Uses the closed-form inversion of Gray et al., "Quickly
 * generating billion-record synthetic databases" (SIGMOD 1994), which needs the generalized harmonic
 * number ζ(n, θ) once (O(n) at construction) and O(1) per draw. The rank is passed through {@link
 * KeyMixer} so that popular rows are scattered over the key range.
 *
 * <p>Not thread-safe (owns its random source).
 */
public final class ZipfKeys implements KeyChooser {
  /** The skew of the Accordion paper's workload (YCSB's default). */
  public static final double DEFAULT_THETA = 0.99;

  private final long n;
  private final double theta;
  private final double zetaN;
  private final double alpha;
  private final double eta;
  private final double half;
  private final SplittableRandom random;

  public ZipfKeys(long n, double theta, long seed) {
    this(n, theta, Double.NaN, seed);
  }

  /**
   * With ζ(n, θ) given ({@code zetaN}), for key spaces too large to sum it here (NaN: compute it).
   */
  ZipfKeys(long n, double theta, double zetaN, long seed) {
    if (n < 2) {
      throw new IllegalArgumentException("need at least 2 rows: " + n);
    }
    if (!(theta > 0 && theta < 1)) {
      throw new IllegalArgumentException("theta must be in (0, 1): " + theta);
    }
    this.n = n;
    this.theta = theta;
    this.zetaN = Double.isNaN(zetaN) ? zeta(n, theta) : zetaN;
    double zeta2 = zeta(2, theta);
    this.alpha = 1.0 / (1.0 - theta);
    this.eta = (1.0 - Math.pow(2.0 / n, 1.0 - theta)) / (1.0 - zeta2 / this.zetaN);
    this.half = Math.pow(0.5, theta);
    this.random = new SplittableRandom(seed);
  }

  /** ζ(n, θ) = Σ_{i=1..n} 1/i^θ. */
  static double zeta(long n, double theta) {
    double sum = 0;
    for (long i = 1; i <= n; i++) {
      sum += 1.0 / Math.pow(i, theta);
    }
    return sum;
  }

  /** The probability of rank {@code k} (0-based) under the exact Zipf law; for tests and docs. */
  public double probability(long k) {
    return 1.0 / Math.pow(k + 1, theta) / zetaN;
  }

  /** A 0-based popularity rank: 0 is the most popular row. */
  public long nextRank() {
    return rank(random.nextDouble(), n, zetaN, eta, alpha, half);
  }

  /**
   * Gray et al.'s inversion: the rank (0-based, below {@code n}) of the uniform draw {@code u} under
   * a Zipf law over {@code n} items with ζ(n, θ) = {@code zetaN}, {@code alpha} = 1 / (1 − θ),
   * {@code half} = 0.5^θ and {@code eta} = (1 − (2/n)^(1−θ)) / (1 − ζ(2, θ) / ζ(n, θ)).
   */
  static long rank(double u, long n, double zetaN, double eta, double alpha, double half) {
    double uz = u * zetaN;
    if (uz < 1.0) {
      return 0;
    }
    if (uz < 1.0 + half) {
      return 1;
    }
    return Math.min(n - 1, (long) (n * Math.pow(eta * u - eta + 1.0, alpha)));
  }

  @Override
  public long nextRowId() {
    return KeyMixer.mix(nextRank());
  }
}
