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
 * The first two rows' counts are kept inline, the map made only for a third row.
 * Thread-safe: each update takes the object's monitor for a few arithmetic operations.
 */
public final class RowAccessCounts {
  private static final int EMPTY = -1;
  /** Where {@link #slot} found a row: the first or second inline pair, or (from 0) the arrays. */
  private static final int FIRST = -2;
  private static final int SECOND = -3;

  private int rows; // 0 until first needed
  /**
   * The first two rows read and their counts, inline: most blocks a get reads are read for one or
   * two rows before the cache lets them go, and these objects live as long as the block is cached,
   * long enough for young collections to copy them. The arrays come with a third row.
   */
  private int firstRow = EMPTY;
  private int firstCount;
  private int secondRow = EMPTY;
  private int secondCount;
  private int[] starts; // null until a third row
  private int[] counts;
  private int used;
  private long sum;
  private long sumOfSquares;

  RowAccessCounts() {}

  /**
   * Counts one get of the row starting at {@code rowStart} (an offset that starts a row of the block;
   * the caller read it through the block's cursor); true if the row should be promoted now, in which
   * case its count is reset. {@code rowCount} is the number of rows in the block (a walk of it),
   * asked for at most once over all calls and not kept.
   */
  public synchronized boolean recordAndTestPromotion(int rowStart, int minAccesses, IntSupplier rowCount) {
    int i = slot(rowStart);
    long c = countAt(i);
    setCountAt(i, (int) c + 1);
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
    setCountAt(i, 0);
    sum -= c;
    sumOfSquares -= c * c;
    return true;
  }

  /** The row's count (for tests). */
  synchronized int count(int rowStart) {
    if (starts == null) {
      return rowStart == firstRow ? firstCount : rowStart == secondRow ? secondCount : 0;
    }
    for (int i = 0; i < starts.length; i++) {
      if (starts[i] == rowStart) {
        return counts[i];
      }
    }
    return 0;
  }

  /** Whether the counts moved out of their inline pairs into arrays (for tests). */
  synchronized boolean hasArrays() {
    return starts != null;
  }

  private int countAt(int i) {
    return i == FIRST ? firstCount : i == SECOND ? secondCount : counts[i];
  }

  private void setCountAt(int i, int count) {
    if (i == FIRST) {
      firstCount = count;
    } else if (i == SECOND) {
      secondCount = count;
    } else {
      counts[i] = count;
    }
  }

  /** The slot of {@code rowStart}, added with a count of 0 if it is new. */
  private int slot(int rowStart) {
    if (starts == null) {
      if (firstRow == rowStart) {
        return FIRST;
      }
      if (firstRow == EMPTY) {
        firstRow = rowStart;
        used++;
        return FIRST;
      }
      if (secondRow == rowStart) {
        return SECOND;
      }
      if (secondRow == EMPTY) {
        secondRow = rowStart;
        used++;
        return SECOND;
      }
      moveToArrays();
    }
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

  /** A third row: the two inline pairs move into a map of 8 slots. */
  private void moveToArrays() {
    starts = new int[8];
    counts = new int[8];
    Arrays.fill(starts, EMPTY);
    place(firstRow, firstCount);
    place(secondRow, secondCount);
    firstRow = EMPTY;
    secondRow = EMPTY;
  }

  private void grow() {
    int[] oldStarts = starts;
    int[] oldCounts = counts;
    starts = new int[oldStarts.length * 2];
    counts = new int[oldStarts.length * 2];
    Arrays.fill(starts, EMPTY);
    for (int j = 0; j < oldStarts.length; j++) {
      if (oldStarts[j] != EMPTY) {
        place(oldStarts[j], oldCounts[j]);
      }
    }
  }

  private void place(int rowStart, int count) {
    int mask = starts.length - 1;
    int i = mix(rowStart) & mask;
    while (starts[i] != EMPTY) {
      i = (i + 1) & mask;
    }
    starts[i] = rowStart;
    counts[i] = count;
  }

  private static int mix(int x) {
    return x * 0x9E3779B9 >>> 7 ^ x;
  }
}
