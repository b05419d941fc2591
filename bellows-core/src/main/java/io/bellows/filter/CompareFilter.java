package io.bellows.filter;

import io.bellows.cell.Cell;

/** Base of the filters that compare one part of a cell with an operand. */
public abstract class CompareFilter extends Filter {
  protected final CompareOperator op;
  protected final ByteComparator comparator;

  protected CompareFilter(CompareOperator op, ByteComparator comparator) {
    if (op == null || comparator == null) {
      throw new IllegalArgumentException("a compare filter needs an operator and a comparator");
    }
    this.op = op;
    this.comparator = comparator;
  }

  public CompareOperator operator() {
    return op;
  }

  public ByteComparator comparator() {
    return comparator;
  }

  final boolean rowPasses(Cell c) {
    return op.passes(comparator.compareTo(c.array(), c.rowOffset(), c.rowLength()));
  }

  final boolean familyPasses(Cell c) {
    return op.passes(comparator.compareTo(c.array(), c.familyOffset(), c.familyLength()));
  }

  final boolean qualifierPasses(Cell c) {
    return op.passes(comparator.compareTo(c.array(), c.qualifierOffset(), c.qualifierLength()));
  }

  final boolean valuePasses(Cell c) {
    return op.passes(comparator.compareTo(c.array(), c.valueOffset(), c.valueLength()));
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "(" + op + ", " + comparator + ")";
  }
}
