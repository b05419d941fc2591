package io.bellows.filter;

import io.bellows.cell.Cell;
import io.bellows.util.Bytes;

/** Keeps the cells whose qualifier lies between two bounds; a null bound is open. */
public final class ColumnRangeFilter extends Filter {
  private final byte[] min;
  private final boolean minInclusive;
  private final byte[] max;
  private final boolean maxInclusive;

  public ColumnRangeFilter(byte[] min, boolean minInclusive, byte[] max, boolean maxInclusive) {
    this.min = min == null ? null : min.clone();
    this.minInclusive = minInclusive;
    this.max = max == null ? null : max.clone();
    this.maxInclusive = maxInclusive;
  }

  /** The lower bound, or null for none. */
  public byte[] min() {
    return min == null ? null : min.clone();
  }

  public boolean minInclusive() {
    return minInclusive;
  }

  /** The upper bound, or null for none. */
  public byte[] max() {
    return max == null ? null : max.clone();
  }

  public boolean maxInclusive() {
    return maxInclusive;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    if (min != null) {
      int cmp = Bytes.compare(c.array(), c.qualifierOffset(), c.qualifierLength(), min, 0, min.length);
      if (cmp < 0) {
        return ReturnCode.SKIP;
      }
      if (cmp == 0 && !minInclusive) {
        return ReturnCode.NEXT_COL;
      }
    }
    if (max == null) {
      return ReturnCode.INCLUDE;
    }
    int cmp = Bytes.compare(c.array(), c.qualifierOffset(), c.qualifierLength(), max, 0, max.length);
    return cmp < 0 || (cmp == 0 && maxInclusive) ? ReturnCode.INCLUDE : ReturnCode.NEXT_ROW;
  }

  @Override
  public Filter fresh() {
    return withFlags(new ColumnRangeFilter(min, minInclusive, max, maxInclusive));
  }

  @Override
  public String toString() {
    return "ColumnRangeFilter(" + (minInclusive ? "[" : "(") + (min == null ? "" : Bytes.toStringBinary(min)) + ", "
        + (max == null ? "" : Bytes.toStringBinary(max)) + (maxInclusive ? "]" : ")") + ")";
  }
}
