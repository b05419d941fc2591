package io.bellows.filter;

import io.bellows.cell.Cell;

/** Keeps the cells whose family passes the comparison (the others' family is skipped in the row). */
public final class FamilyFilter extends CompareFilter {
  public FamilyFilter(CompareOperator op, ByteComparator comparator) {
    super(op, comparator);
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    return familyPasses(c) ? ReturnCode.INCLUDE : ReturnCode.NEXT_ROW;
  }

  @Override
  public Filter fresh() {
    return withFlags(new FamilyFilter(op, comparator));
  }
}
