package io.bellows.cache;

import java.util.Arrays;
import java.util.function.IntSupplier;

/**
 * How often gets read each row of one cached data block, and the KV cache's promotion test on it
 * (the SAC 2024 paper §4.1): a row is promoted once its count exceeds a minimum and the block's mean
 * plus one standard deviation — a block whose gets go to a few of its rows uses its cache space
 * poorly, a block read evenly does not. A promoted row's count starts again from 0, so the block's
 * other rows get their chance.
 *
 * <p>The counts are per row rather than per cell (the paper's key-value) because a get reads a row;
 * rows are named by the offset of their first entry in the block's payload. Only rows that were read
 * are kept (a small open-addressing map): the mean and deviation need just the sums and the number
 * of rows in the block, and that number — a walk of the whole block — is asked for only when a count
 * first passes the minimum, so a block read a few times, most blocks, never pays for the walk.
 * The walk is the caller's, handed to each call and never kept: it captures the get's read, whose
 * block copy (64 KiB on the heap when it came from the file) would otherwise live as long as the
 * counts, which L2 keeps beside its slot for as long as it holds the block.
 * Thread-safe: each update takes the object's monitor for a few arithmetic operations.
 */
public final class RowAccessCounts {
  private static final int EMPTY = -1;

  private int rows; // 0 until first needed
  private int[] starts = new int[4];
  private int[] counts = new int[4];
  private int used;
  private long sum;
  private long sumOfSquares;

  RowAccessCounts() {
    Arrays.fill(starts, EMPTY);
  }

  /**
   * Counts one get of the row starting at {@code rowStart} (an offset that starts a row of the block;
   * the caller read it through the block's cursor); true if the row should be promoted now, in which
   * case its count is reset. {@code rowCount} is the number of rows in the block (a walk of it),
   * asked for at most once over all calls and not kept.
   */
  public synchronized boolean recordAndTestPromotion(int rowStart, int minAccesses, IntSupplier rowCount) {
    int i = slot(rowStart);
    long c = counts[i];
    counts[i]++;
    sum++;
    sumOfSquares += 2 * c + 1; // (c+1)^2 - c^2
    c++;
    if (c <= minAccesses) {
      return false;
    }
    if (rows == 0) {
      rows = Math.max(rowCount.getAsInt(), used);
    }
    double n = rows;
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
    for (int i = 0; i < starts.length; i++) {
      if (starts[i] == rowStart) {
        return counts[i];
      }
    }
    return 0;
  }

  /** The slot of {@code rowStart}, added with a count of 0 if it is new. */
  private int slot(int rowStart) {
    int mask = starts.length - 1;
    for (int i = mix(rowStart) & mask; ; i = (i + 1) & mask) {
      if (starts[i] == rowStart) {
        return i;
      }
      if (starts[i] == EMPTY) {
        if (2 * (used + 1) > starts.length) {
          grow();
          return slot(rowStart);
        }
        starts[i] = rowStart;
        used++;
        return i;
      }
    }
  }

  private void grow() {
    int[] oldStarts = starts;
    int[] oldCounts = counts;
    starts = new int[oldStarts.length * 2];
    counts = new int[oldStarts.length * 2];
    Arrays.fill(starts, EMPTY);
    int mask = starts.length - 1;
    for (int j = 0; j < oldStarts.length; j++) {
      if (oldStarts[j] != EMPTY) {
        int i = mix(oldStarts[j]) & mask;
        while (starts[i] != EMPTY) {
          i = (i + 1) & mask;
        }
        starts[i] = oldStarts[j];
        counts[i] = oldCounts[j];
      }
    }
  }

  private static int mix(int x) {
    return x * 0x9E3779B9 >>> 7 ^ x;
  }
}
