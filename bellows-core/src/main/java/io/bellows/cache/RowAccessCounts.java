package io.bellows.cache;

import java.util.Arrays;

/**
 * How often gets read each row of one cached data block, and the KV cache's promotion test on it
 * (the SAC 2024 paper §4.1): a row is promoted once its count exceeds a minimum and the block's mean
 * plus one standard deviation — a block whose gets go to a few of its rows uses its cache space
 * poorly, a block read evenly does not. A promoted row's count starts again from 0, so the block's
 * other rows get their chance.
 *
 * <p>The counts are per row rather than per cell (the paper's key-value) because a get reads a row;
 * rows are named by the offset of their first entry in the block's payload. Thread-safe: each update
 * takes the object's monitor for a few arithmetic operations.
 */
public final class RowAccessCounts {
  private final int[] rowStarts;
  private final int[] counts;
  private long sum;
  private long sumOfSquares;

  /** @param rowStarts offsets of the first entry of each row in the block, ascending */
  RowAccessCounts(int[] rowStarts) {
    this.rowStarts = rowStarts;
    this.counts = new int[rowStarts.length];
  }

  /**
   * Counts one get of the row starting at {@code rowStart}; true if the row should be promoted now,
   * in which case its count is reset. An offset that starts no row (cannot happen for a block read
   * through the same cursor) counts nothing.
   */
  public synchronized boolean recordAndTestPromotion(int rowStart, int minAccesses) {
    int i = Arrays.binarySearch(rowStarts, rowStart);
    if (i < 0) {
      return false;
    }
    long c = counts[i];
    counts[i]++;
    sum++;
    sumOfSquares += 2 * c + 1; // (c+1)^2 - c^2
    c++;
    if (c <= minAccesses) {
      return false;
    }
    double n = counts.length;
    double mean = sum / n;
    double variance = Math.max(0, sumOfSquares / n - mean * mean);
    if (c <= mean + Math.sqrt(variance)) {
      return false;
    }
    counts[i] = 0;
    sum -= c;
    sumOfSquares -= c * c;
    return true;
  }

  /** The row's count (for tests). */
  synchronized int count(int rowStart) {
    int i = Arrays.binarySearch(rowStarts, rowStart);
    return i < 0 ? 0 : counts[i];
  }
}
