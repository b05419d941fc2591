package io.bellows.sstable;

import java.io.PrintStream;
import java.util.function.LongFunction;

/**
 * Counts of positive values in power-of-two buckets [2^k, 2^(k+1)); zero and below share one bucket.
 * Printed from the lowest to the highest non-empty bucket, empty ones between included, so the
 * shape of the distribution shows. Not thread-safe.
 */
final class PowerOfTwoHistogram {
  /** Bucket 0 holds values below 1; bucket k+1 holds [2^k, 2^(k+1)). */
  private final long[] counts = new long[65];
  private long total;

  void add(long value) {
    counts[bucketOf(value)]++;
    total++;
  }

  static int bucketOf(long value) {
    return value < 1 ? 0 : 64 - Long.numberOfLeadingZeros(value);
  }

  /** The count of the bucket holding {@code value}. */
  long countAt(long value) {
    return counts[bucketOf(value)];
  }

  long total() {
    return total;
  }

  /**
   * One line per bucket: its range (bounds shown by {@code unit}), its count, its share, and a bar
   * of up to 40 characters scaled to the fullest bucket.
   */
  void print(PrintStream out, String indent, LongFunction<String> unit) {
    int lo = 0;
    while (lo < counts.length && counts[lo] == 0) {
      lo++;
    }
    int hi = counts.length - 1;
    while (hi >= lo && counts[hi] == 0) {
      hi--;
    }
    long fullest = 0;
    for (int i = lo; i <= hi; i++) {
      fullest = Math.max(fullest, counts[i]);
    }
    for (int i = lo; i <= hi; i++) {
      String range = i == 0 ? "< " + unit.apply(1) : "[" + unit.apply(1L << (i - 1)) + ", "
          + (i == 64 ? "max" : unit.apply(1L << i)) + ")";
      int bar = (int) ((counts[i] * 40 + fullest - 1) / fullest);
      out.println(String.format("%s%-22s %10d %6.1f%% %s", indent, range, counts[i], 100.0 * counts[i] / total,
          "#".repeat(bar)));
    }
  }

  /** Byte counts as 512 B, 4 KiB, 1 MiB (powers of two print exactly). */
  static String bytes(long n) {
    if (n >= 1L << 30 && n % (1L << 30) == 0) {
      return (n >> 30) + " GiB";
    }
    if (n >= 1L << 20 && n % (1L << 20) == 0) {
      return (n >> 20) + " MiB";
    }
    if (n >= 1L << 10 && n % (1L << 10) == 0) {
      return (n >> 10) + " KiB";
    }
    return n + " B";
  }
}
