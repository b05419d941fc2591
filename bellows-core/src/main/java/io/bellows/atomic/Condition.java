package io.bellows.atomic;

import io.bellows.cell.Cell;
import io.bellows.filter.CompareOperator;
import io.bellows.filter.Filter;
import io.bellows.util.Bytes;
import java.util.List;

/**
 * The check of a conditional row operation, evaluated under the row lock against the row as it is
 * just before the operation (HBase's {@code CheckAndMutate} conditions). Two forms:
 *
 * <ul>
 *   <li>a <b>column</b> compared with an expected value: the newest visible version of {@code
 *       family:qualifier} whose timestamp lies in the time range is compared bytewise (unsigned
 *       lexicographic, as HBase's {@code BinaryComparator}) as {@code compare(expected, value)},
 *       and the operator applies to that result: {@code LESS} holds when the expected value is less
 *       than the stored one. This is HBase's order, the reverse of a filter's (where {@code LESS}
 *       passes a cell whose value is less than the operand). {@code NO_OP} never holds for a
 *       compared value. A null or empty expected value asks about absence (HBase's rules): an
 *       absent column holds unless the operator is {@code NOT_EQUAL}; a present one holds iff
 *       (its value is empty) == (the operator is not {@code NOT_EQUAL}). An absent column never
 *       holds against a non-empty expected value, whatever the operator.</li>
 *   <li>a <b>filter</b>: holds when the row read with the filter (every family, within the time
 *       range) is not empty. The filter is a prototype: every evaluation reads with a fresh copy.</li>
 * </ul>
 *
 * <p>The time range is {@code [min, max)}, all of time by default. Immutable.
 */
public final class Condition {
  private final byte[] family;
  private final byte[] qualifier;
  private final CompareOperator op;
  private final byte[] expected;
  private final Filter filter;
  private final long minTimestamp;
  private final long maxTimestamp;

  private Condition(byte[] family, byte[] qualifier, CompareOperator op, byte[] expected, Filter filter,
      long minTimestamp, long maxTimestamp) {
    if (minTimestamp < 0 || maxTimestamp < minTimestamp) {
      throw new IllegalArgumentException("bad time range [" + minTimestamp + ", " + maxTimestamp + ")");
    }
    this.family = family;
    this.qualifier = qualifier;
    this.op = op;
    this.expected = expected;
    this.filter = filter;
    this.minTimestamp = minTimestamp;
    this.maxTimestamp = maxTimestamp;
  }

  /** The column's newest value compared with {@code expected} by {@code op} (see the class comment). */
  public static Condition column(byte[] family, byte[] qualifier, CompareOperator op, byte[] expected) {
    if (family == null || family.length == 0) {
      throw new IllegalArgumentException("a condition's family must not be null or empty");
    }
    if (op == null) {
      throw new IllegalArgumentException("a condition needs a compare operator");
    }
    return new Condition(family.clone(), qualifier == null ? Bytes.EMPTY : qualifier.clone(), op,
        expected == null ? Bytes.EMPTY : expected.clone(), null, 0, Long.MAX_VALUE);
  }

  /** The column's newest value equals {@code expected}; null or empty: the column is absent or empty. */
  public static Condition ifEquals(byte[] family, byte[] qualifier, byte[] expected) {
    return column(family, qualifier, CompareOperator.EQUAL, expected);
  }

  /** The column is absent (or its newest value is empty), HBase's {@code ifNotExists}. */
  public static Condition ifAbsent(byte[] family, byte[] qualifier) {
    return column(family, qualifier, CompareOperator.EQUAL, null);
  }

  /** The row has a cell that passes {@code filter}. */
  public static Condition ifRowPasses(Filter filter) {
    if (filter == null) {
      throw new IllegalArgumentException("a filter condition needs a filter");
    }
    return new Condition(null, null, null, null, filter, 0, Long.MAX_VALUE);
  }

  /** This condition looking only at versions with timestamps in {@code [min, maxExclusive)}. */
  public Condition timeRange(long min, long maxExclusive) {
    return new Condition(family, qualifier, op, expected, filter, min, maxExclusive);
  }

  public boolean isFilter() {
    return filter != null;
  }

  /** The compared column's family; null for a filter condition. */
  public byte[] family() {
    return family == null ? null : family.clone();
  }

  public byte[] qualifier() {
    return qualifier == null ? null : qualifier.clone();
  }

  public CompareOperator operator() {
    return op;
  }

  /** The expected value (empty for "absent"); null for a filter condition. */
  public byte[] expected() {
    return expected == null ? null : expected.clone();
  }

  /** The filter prototype; null for a column condition. */
  public Filter filter() {
    return filter;
  }

  public long minTimestamp() {
    return minTimestamp;
  }

  public long maxTimestamp() {
    return maxTimestamp;
  }

  public boolean isAllTime() {
    return minTimestamp == 0 && maxTimestamp == Long.MAX_VALUE;
  }

  /**
   * Whether the condition holds, given what the region read for it: for a column condition, the
   * column's newest version in the time range (at most one cell; none if absent); for a filter
   * condition, the row's cells that passed the filter.
   */
  public boolean holds(List<Cell> read) {
    if (filter != null) {
      return !read.isEmpty();
    }
    return matches(read.isEmpty() ? null : read.get(0));
  }

  private boolean matches(Cell newest) {
    boolean askedAbsent = expected.length == 0;
    boolean notEqual = op == CompareOperator.NOT_EQUAL;
    if (newest == null) {
      return askedAbsent && !notEqual;
    }
    if (askedAbsent) {
      return (newest.valueLength() == 0) != notEqual;
    }
    int c = Bytes.compare(expected, 0, expected.length, newest.array(), newest.valueOffset(), newest.valueLength());
    return switch (op) {
      case LESS -> c < 0;
      case LESS_OR_EQUAL -> c <= 0;
      case EQUAL -> c == 0;
      case NOT_EQUAL -> c != 0;
      case GREATER_OR_EQUAL -> c >= 0;
      case GREATER -> c > 0;
      case NO_OP -> false;
    };
  }

  @Override
  public String toString() {
    String range = isAllTime() ? "" : " in [" + minTimestamp + ", " + maxTimestamp + ")";
    if (filter != null) {
      return "row passes " + filter + range;
    }
    return Bytes.toStringBinary(family) + ":" + Bytes.toStringBinary(qualifier) + " " + op + " "
        + (expected.length == 0 ? "<absent>" : Bytes.toStringBinary(expected)) + range;
  }
}
