package io.bellows.filter;

import io.bellows.cell.Cell;
import java.util.ArrayList;
import java.util.List;

/**
 * One region scan's use of a {@link Filter}: given each row's cells as the query returns them (in
 * cell order, families in name order), decides which cells and whether the row are returned,
 * calling the filter in the order {@link Filter} documents. Holds the region's fresh copy of the
 * filter. Not thread-safe.
 */
public final class RowFilterRun {
  private final Filter filter;
  private boolean done;

  public RowFilterRun(Filter prototype, boolean reversed) {
    this.filter = prototype.fresh();
    this.filter.setReversed(reversed);
  }

  /** True once the filter said no later row can pass: the region's scan may end. */
  public boolean done() {
    if (!done && filter.filterAllRemaining()) {
      done = true;
    }
    return done;
  }

  /**
   * Filters one row in place: afterwards {@code row} holds the cells to return. Returns false when
   * the row is not returned (then {@code row} is empty).
   */
  public boolean apply(List<Cell> row) {
    if (row.isEmpty() || done()) {
      row.clear();
      return false;
    }
    filter.reset();
    if (filter.filterRowKey(row.get(0))) {
      row.clear();
      return false;
    }
    List<Cell> kept = new ArrayList<>(row.size());
    Cell skipFrom = null;
    Filter.Skip skip = Filter.Skip.NONE;
    for (Cell c : row) {
      if (skipFrom != null) {
        boolean skipped = skip == Filter.Skip.COLUMN ? skipFrom.sameColumn(c) : skipFrom.sameFamily(c);
        if (skipped) {
          continue;
        }
        skipFrom = null;
      }
      if (filter.filterAllRemaining()) {
        break; // the scan ends; the row keeps what it has so far, as in HBase
      }
      Filter.ReturnCode rc = filter.filterCell(c);
      if (rc.include) {
        kept.add(filter.transformCell(c));
      }
      if (rc.skip != Filter.Skip.NONE) {
        skipFrom = c;
        skip = rc.skip;
      }
    }
    row.clear();
    if (filter.hasFilterRow()) {
      filter.filterRowCells(kept);
    }
    if (kept.isEmpty() || filter.filterRow()) {
      return false;
    }
    row.addAll(kept);
    return true;
  }
}
