package io.bellows.cache;

import java.util.Arrays;

/**
 * The order of a cache's entries by access stamp, oldest first: a least-significant-digit radix sort
 * of their indices over the bits in which the stamps differ (11 bits a pass, three or four passes for
 * a cache's range of stamps). An eviction scan sorts every block in L1 this way; the sort of candidate
 * objects with a comparator it replaces was a sixth of a small-block read benchmark's CPU.
 */
final class StampOrder {
  private static final int DIGIT_BITS = 11;
  private static final int RADIX = 1 << DIGIT_BITS;

  private StampOrder() {}

  /** The indices {@code 0..n-1} ordered by {@code stamps[i]} ascending; equal stamps keep index order. */
  static int[] ascending(long[] stamps, int n) {
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    if (n < 2) {
      return order;
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      min = Math.min(min, stamps[i]);
      max = Math.max(max, stamps[i]);
    }
    int bits = 64 - Long.numberOfLeadingZeros(max - min); // max - min as unsigned covers any range
    int[] from = order;
    int[] to = new int[n];
    int[] count = new int[RADIX + 1];
    for (int shift = 0; shift < bits; shift += DIGIT_BITS) {
      Arrays.fill(count, 0);
      for (int i = 0; i < n; i++) {
        count[digit(stamps[from[i]], min, shift) + 1]++;
      }
      for (int d = 0; d < RADIX; d++) {
        count[d + 1] += count[d];
      }
      for (int i = 0; i < n; i++) {
        int idx = from[i];
        to[count[digit(stamps[idx], min, shift)]++] = idx;
      }
      int[] t = from;
      from = to;
      to = t;
    }
    return from;
  }

  private static int digit(long stamp, long min, int shift) {
    return (int) (((stamp - min) >>> shift) & (RADIX - 1));
  }
}
