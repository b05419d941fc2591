package io.bellows.filter;

import io.bellows.cell.Cell;

/** Keeps the rows whose key passes the comparison. */
public final class RowFilter extends CompareFilter {
  private boolean filterOutRow;

  public RowFilter(CompareOperator op, ByteComparator comparator) {
    super(op, comparator);
  }

  @Override
  public void reset() {
    filterOutRow = false;
  }

  @Override
  public boolean filterRowKey(Cell first) {
    if (!rowPasses(first)) {
      filterOutRow = true;
    }
    return filterOutRow;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    return filterOutRow ? ReturnCode.NEXT_ROW : ReturnCode.INCLUDE;
  }

  @Override
  public boolean filterRow() {
    return filterOutRow;
  }

  @Override
  public Filter fresh() {
    return withFlags(new RowFilter(op, comparator));
  }
}
