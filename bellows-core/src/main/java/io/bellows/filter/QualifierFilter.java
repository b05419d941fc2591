package io.bellows.filter;

import io.bellows.cell.Cell;

/** Keeps the cells whose qualifier passes the comparison. */
public final class QualifierFilter extends CompareFilter {
  public QualifierFilter(CompareOperator op, ByteComparator comparator) {
    super(op, comparator);
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    return qualifierPasses(c) ? ReturnCode.INCLUDE : ReturnCode.SKIP;
  }

  @Override
  public Filter fresh() {
    return withFlags(new QualifierFilter(op, comparator));
  }
}
