package io.bellows.atomic;

import io.bellows.cell.Cell;
import io.bellows.util.Bytes;

/**
 * A read-modify-write of one column in an atomic row operation (HBase's {@code Increment} and
 * {@code Append}): the new value is computed from the column's newest visible value under the row
 * lock. {@link Kind#INCREMENT} adds {@link #amount()} to a big-endian 8-byte counter (absent counts
 * as 0; the amount may be negative); {@link Kind#APPEND} concatenates {@code operand} onto the
 * value (absent counts as empty). With a time range {@code [minTimestamp, maxTimestamp)} (HBase's
 * {@code Increment.setTimeRange}), the current value is the newest version in that range. Immutable.
 */
public record ColumnUpdate(Kind kind, byte[] family, byte[] qualifier, byte[] operand, long minTimestamp,
    long maxTimestamp) {
  public enum Kind { INCREMENT, APPEND }

  public ColumnUpdate {
    if (kind == null) {
      throw new IllegalArgumentException("a column update needs a kind");
    }
    if (family == null || family.length == 0) {
      throw new IllegalArgumentException("family must not be null or empty");
    }
    qualifier = qualifier == null ? Bytes.EMPTY : qualifier.clone();
    operand = operand == null ? Bytes.EMPTY : operand.clone();
    family = family.clone();
    if (kind == Kind.INCREMENT && operand.length != 8) {
      throw new IllegalArgumentException("an increment's amount is 8 bytes, not " + operand.length);
    }
    if (minTimestamp < 0 || maxTimestamp < minTimestamp) {
      throw new IllegalArgumentException("bad time range [" + minTimestamp + ", " + maxTimestamp + ")");
    }
  }

  public static ColumnUpdate increment(byte[] family, byte[] qualifier, long amount) {
    return new ColumnUpdate(Kind.INCREMENT, family, qualifier, Bytes.toBytes(amount), 0, Long.MAX_VALUE);
  }

  public static ColumnUpdate append(byte[] family, byte[] qualifier, byte[] suffix) {
    return new ColumnUpdate(Kind.APPEND, family, qualifier, suffix, 0, Long.MAX_VALUE);
  }

  /** This update reading the current value from versions in {@code [min, maxExclusive)} only. */
  public ColumnUpdate timeRange(long min, long maxExclusive) {
    return new ColumnUpdate(kind, family, qualifier, operand, min, maxExclusive);
  }

  public boolean isAllTime() {
    return minTimestamp == 0 && maxTimestamp == Long.MAX_VALUE;
  }

  /** An increment's amount. */
  public long amount() {
    if (kind != Kind.INCREMENT) {
      throw new IllegalStateException("an append has no amount");
    }
    return Bytes.getLong(operand, 0);
  }

  @Override
  public byte[] family() {
    return family.clone();
  }

  @Override
  public byte[] qualifier() {
    return qualifier.clone();
  }

  @Override
  public byte[] operand() {
    return operand.clone();
  }

  /** Whether the cell is of this update's column (compares bytes, allocates nothing). */
  public boolean sameColumn(Cell c) {
    return Bytes.equals(c.array(), c.familyOffset(), c.familyLength(), family, 0, family.length)
        && Bytes.equals(c.array(), c.qualifierOffset(), c.qualifierLength(), qualifier, 0, qualifier.length);
  }

  /** Whether both update one column. */
  public boolean sameColumn(ColumnUpdate o) {
    return java.util.Arrays.equals(family, o.family) && java.util.Arrays.equals(qualifier, o.qualifier);
  }

  /**
   * The column's new value given its newest visible cell (null: absent). Throws {@link
   * IllegalArgumentException} naming the column if an increment meets a value that is not 8 bytes.
   */
  public byte[] newValue(Cell current) {
    if (kind == Kind.INCREMENT) {
      long base = 0;
      if (current != null) {
        if (current.valueLength() != 8) {
          throw new IllegalArgumentException("column " + column() + " holds " + current.valueLength()
              + " bytes, not an 8-byte counter");
        }
        base = Bytes.getLong(current.array(), current.valueOffset());
      }
      return Bytes.toBytes(base + amount());
    }
    if (current == null) {
      return operand.clone();
    }
    byte[] out = new byte[current.valueLength() + operand.length];
    System.arraycopy(current.array(), current.valueOffset(), out, 0, current.valueLength());
    System.arraycopy(operand, 0, out, current.valueLength(), operand.length);
    return out;
  }

  /** {@code family:qualifier}, printable. */
  public String column() {
    return Bytes.toStringBinary(family) + ":" + Bytes.toStringBinary(qualifier);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ColumnUpdate u && kind == u.kind && sameColumn(u) && java.util.Arrays.equals(operand, u.operand)
        && minTimestamp == u.minTimestamp && maxTimestamp == u.maxTimestamp;
  }

  @Override
  public int hashCode() {
    return 31 * (31 * kind.hashCode() + java.util.Arrays.hashCode(family)) + java.util.Arrays.hashCode(qualifier);
  }

  @Override
  public String toString() {
    String range = isAllTime() ? "" : " reading [" + minTimestamp + ", " + maxTimestamp + ")";
    return (kind == Kind.INCREMENT ? "increment " + column() + " by " + amount()
        : "append " + Bytes.toStringBinary(operand) + " to " + column()) + range;
  }
}
