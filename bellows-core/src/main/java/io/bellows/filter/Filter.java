package io.bellows.filter;

import io.bellows.cell.Cell;
import java.util.List;

/**
 * A server-side row and cell filter, evaluated inside the engine's scan (by {@link RowFilterRun})
 * before a row is handed out. The decisions and the order of the calls follow HBase 2.x's
 * {@code Filter} contract, so a filter written against HBase's documentation means the same here:
 *
 * <ol>
 *   <li>{@link #filterAllRemaining()} before each row: true ends the scan (of this region);</li>
 *   <li>{@link #reset()}, then {@link #filterRowKey(Cell)} with the row's first cell: true drops the row;</li>
 *   <li>{@link #filterCell(Cell)} for each cell the query returns (after versions, deletes, TTL, time
 *       range and the query's version count), in cell order across families; included cells pass
 *       through {@link #transformCell(Cell)};</li>
 *   <li>when {@link #hasFilterRow()}, {@link #filterRowCells(List)} with the included cells; then, if
 *       any are left, {@link #filterRow()}: true drops the row. A row left empty is dropped without
 *       asking {@code filterRow} (so a {@link PageFilter} counts only rows that are returned).</li>
 * </ol>
 *
 * <p>Filters are stateful and single-threaded. The query holds a prototype; every region scan works
 * on its own {@link #fresh()} copy, so state (a page count) is per region, as in HBase.
 */
public abstract class Filter {
  /** What to do with a cell, and which of the following cells of the row to skip. */
  public enum ReturnCode {
    INCLUDE(true, Skip.NONE),
    INCLUDE_AND_NEXT_COL(true, Skip.COLUMN),
    INCLUDE_AND_SEEK_NEXT_ROW(true, Skip.ROW),
    SKIP(false, Skip.NONE),
    NEXT_COL(false, Skip.COLUMN),
    /** Skips the rest of this family's cells in the row (HBase skips the rest of that store's row). */
    NEXT_ROW(false, Skip.ROW);

    final boolean include;
    final Skip skip;

    ReturnCode(boolean include, Skip skip) {
      this.include = include;
      this.skip = skip;
    }

    public boolean includes() {
      return include;
    }

    static ReturnCode of(boolean include, Skip skip) {
      for (ReturnCode rc : values()) {
        if (rc.include == include && rc.skip == skip) {
          return rc;
        }
      }
      throw new AssertionError();
    }
  }

  /** How much of what follows a cell a return code skips; ordered from least to most. */
  enum Skip { NONE, COLUMN, ROW }

  /** Whether the scan walks rows backwards (a {@link PrefixFilter} then knows when it has passed). */
  protected boolean reversed;

  public void setReversed(boolean reversed) {
    this.reversed = reversed;
  }

  public boolean isReversed() {
    return reversed;
  }

  /** Called before each row. */
  public void reset() {}

  /** True ends the scan of this region. */
  public boolean filterAllRemaining() {
    return false;
  }

  /** True drops the row whose first cell this is. */
  public boolean filterRowKey(Cell firstRowCell) {
    return false;
  }

  public abstract ReturnCode filterCell(Cell c);

  /** The cell to return in place of an included one. */
  public Cell transformCell(Cell c) {
    return c;
  }

  /** Whether {@link #filterRowCells} and {@link #filterRow} take part in the row's decision. */
  public boolean hasFilterRow() {
    return false;
  }

  /** May change the row's included cells. */
  public void filterRowCells(List<Cell> cells) {}

  /** True drops the row, after all its cells were seen. */
  public boolean filterRow() {
    return false;
  }

  /** A copy with the same settings and fresh state. */
  public abstract Filter fresh();

  /** Sets the reversed flag of a fresh copy. */
  protected final <F extends Filter> F withFlags(F f) {
    f.setReversed(reversed);
    return f;
  }
}
