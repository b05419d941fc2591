package io.bellows.bench;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

/**
 * YCSB's "latest" request distribution for a write-only run, the shape of time series and feeds:
 * recent rows are the hottest. Rows {@code 0 … keySpace − 1} exist from the start, as if loaded.
 * Each draw inserts the next new row with probability {@link #INSERT_SHARE} (YCSB workload D's
 * insert proportion), and otherwise updates the row {@code newest − r}, where {@code r} is a Zipf
 * rank (θ = 0.99, Gray et al.'s inversion as in YCSB's {@code ZipfianGenerator}) over the rows that
 * exist so far: the newest row is the most likely, then the one before it, and so on (YCSB's {@code
 * SkewedLatestGenerator}). As the newest row advances, the hot set moves with it. The row number
 * is then passed through {@link KeyMixer}, as YCSB hashes its key numbers, so consecutive rows land
 * far apart in key order.
 *
 * <p>Writers do not share a counter, so that a run is the same for a seed whatever the threads'
 * timing: writer {@code i} of {@code n} inserts rows {@code keySpace + i}, {@code keySpace + i + n},
 * …, and counts the rows that exist as {@code keySpace} plus {@code n} times its own inserts, which
 * is what all writers have inserted when they run at the same pace.
 *
 * <p>Not thread-safe (owns its random source): one per writer.
 */
final class LatestKeys implements KeyChooser {
  /** The share of draws that insert a new row: YCSB workload D's {@code insertproportion}. */
  static final double INSERT_SHARE = 0.05;

  /** ζ(n, θ) of the initial key spaces, computed once per JVM (O(n)) and shared by the writers. */
  private static final Map<Long, Double> ZETA = new ConcurrentHashMap<>();

  private final long keySpace;
  private final int writer;
  private final int writers;
  private final double theta = ZipfKeys.DEFAULT_THETA;
  private final double zeta2 = ZipfKeys.zeta(2, theta);
  private final double alpha = 1.0 / (1.0 - theta);
  private final double half = Math.pow(0.5, theta);
  private final SplittableRandom random;
  /** Rows that exist as this writer counts them, and ζ and η of that count. */
  private long count;
  private double zetaN;
  private double eta;
  private long inserts;

  LatestKeys(long keySpace, long seed, int writer, int writers) {
    if (keySpace < 2) {
      throw new IllegalArgumentException("the latest distribution needs a key space of at least 2 rows: " + keySpace);
    }
    if (writers < 1 || writer < 0 || writer >= writers) {
      throw new IllegalArgumentException("writer " + writer + " of " + writers);
    }
    this.keySpace = keySpace;
    this.writer = writer;
    this.writers = writers;
    this.random = new SplittableRandom(seed);
    this.count = keySpace;
    this.zetaN = ZETA.computeIfAbsent(keySpace, n -> ZipfKeys.zeta(n, theta));
    this.eta = eta();
  }

  private double eta() {
    return (1.0 - Math.pow(2.0 / count, 1.0 - theta)) / (1.0 - zeta2 / zetaN);
  }

  /** The next row number, before mixing: an insert of a new row, or an update of a recent one. */
  long nextRow() {
    if (random.nextDouble() < INSERT_SHARE) {
      long row = keySpace + writer + inserts * writers;
      inserts++;
      grow(keySpace + inserts * writers);
      return row;
    }
    return count - 1 - rank();
  }

  /** Raises the count of rows to {@code n}, extending ζ by the new terms (as YCSB does). */
  private void grow(long n) {
    for (long i = count + 1; i <= n; i++) {
      zetaN += 1.0 / Math.pow(i, theta);
    }
    count = n;
    eta = eta();
  }

  /** A Zipf rank over {@code count} rows: 0 (the newest) is the most likely. */
  private long rank() {
    return ZipfKeys.rank(random.nextDouble(), count, zetaN, eta, alpha, half);
  }

  /** Rows this writer has inserted so far. */
  long inserts() {
    return inserts;
  }

  @Override
  public long nextRowId() {
    return KeyMixer.mix(nextRow());
  }
}
