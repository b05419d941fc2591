package io.bellows.filter;

import io.bellows.cell.Cell;

/** Only the first cell of each row (for counting rows). */
public final class FirstKeyOnlyFilter extends Filter {
  private boolean found;

  @Override
  public void reset() {
    found = false;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    if (found) {
      return ReturnCode.NEXT_ROW;
    }
    found = true;
    return ReturnCode.INCLUDE;
  }

  @Override
  public Filter fresh() {
    return withFlags(new FirstKeyOnlyFilter());
  }

  @Override
  public String toString() {
    return "FirstKeyOnlyFilter";
  }
}
