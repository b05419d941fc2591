package io.bellows.filter;

import io.bellows.cell.Cell;

/** Keeps the cells whose value passes the comparison. */
public final class ValueFilter extends CompareFilter {
  public ValueFilter(CompareOperator op, ByteComparator comparator) {
    super(op, comparator);
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    return valuePasses(c) ? ReturnCode.INCLUDE : ReturnCode.SKIP;
  }

  @Override
  public Filter fresh() {
    return withFlags(new ValueFilter(op, comparator));
  }
}
