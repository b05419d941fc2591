package io.bellows.cache;

import java.util.Arrays;
import java.util.Collection;
import java.util.function.ToLongFunction;

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

  /**
   * Entries with their access stamps read once, oldest first: what an eviction run walks. Stamps
   * change under the run (gets stamp entries without a lock), and sorting on live values breaks a
   * sort's contract.
   */
  static final class Snapshot<E> {
    private final Object[] entries;
    private final long[] stamps;
    private final int[] order;

    private Snapshot(Object[] entries, long[] stamps, int size) {
      this.entries = entries;
      this.stamps = stamps;
      this.order = ascending(stamps, size);
    }

    /** How many entries the snapshot holds. */
    int size() {
      return order.length;
    }

    /** The {@code k}-th oldest entry. */
    @SuppressWarnings("unchecked")
    E entry(int k) {
      return (E) entries[order[k]];
    }

    /** The stamp the {@code k}-th oldest entry had when the snapshot was taken. */
    long stamp(int k) {
      return stamps[order[k]];
    }

    /** Drops the snapshot's reference to the {@code k}-th oldest entry ({@link #entry} then gives null). */
    void forget(int k) {
      entries[order[k]] = null;
    }
  }

  /** A snapshot of {@code values} (which may change while it is taken) ordered by {@code stamp}. */
  @SuppressWarnings("unchecked")
  static <E> Snapshot<E> snapshot(Collection<E> values, ToLongFunction<E> stamp) {
    Object[] entries = values.toArray(); // a concurrent collection's toArray copes with changes under it
    long[] stamps = new long[entries.length];
    for (int i = 0; i < entries.length; i++) {
      stamps[i] = stamp.applyAsLong((E) entries[i]);
    }
    return new Snapshot<>(entries, stamps, entries.length);
  }

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
