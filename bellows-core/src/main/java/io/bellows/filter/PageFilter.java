package io.bellows.filter;

import io.bellows.cell.Cell;

/**
 * At most {@code pageSize} rows from each region, as in HBase: the state is per region, so a scan
 * over several regions may return more (set a limit on the scan for an exact count).
 */
public final class PageFilter extends Filter {
  private final long pageSize;
  private long rowsAccepted;

  public PageFilter(long pageSize) {
    if (pageSize < 0) {
      throw new IllegalArgumentException("page size must be at least 0, not " + pageSize);
    }
    this.pageSize = pageSize;
  }

  public long pageSize() {
    return pageSize;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    return ReturnCode.INCLUDE;
  }

  @Override
  public boolean filterAllRemaining() {
    return rowsAccepted >= pageSize;
  }

  @Override
  public boolean hasFilterRow() {
    return true;
  }

  @Override
  public boolean filterRow() {
    rowsAccepted++;
    return rowsAccepted > pageSize;
  }

  @Override
  public Filter fresh() {
    return withFlags(new PageFilter(pageSize));
  }

  @Override
  public String toString() {
    return "PageFilter(" + pageSize + ")";
  }
}
