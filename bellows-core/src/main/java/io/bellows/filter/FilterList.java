package io.bellows.filter;

import io.bellows.cell.Cell;
import java.util.ArrayList;
import java.util.List;

/**
 * Filters combined: {@code MUST_PASS_ALL} (a cell or row passes when every filter lets it) or
 * {@code MUST_PASS_ONE} (when any does). Lists nest.
 *
 * <p>Return codes merge as HBase merges them, which follows from reading each code as "include or
 * not" plus "how much to skip after": ALL includes when all include and skips the most any asks;
 * ONE includes when any includes and skips the least any asks. With {@code MUST_PASS_ONE} a filter
 * that asked to skip the rest of a column or of the family's row is not asked again about those
 * cells. Every filter of a {@code MUST_PASS_ALL} list sees every cell the list is asked about.
 */
public final class FilterList extends Filter {
  public enum Operator { MUST_PASS_ALL, MUST_PASS_ONE }

  private final Operator operator;
  private final List<Filter> filters;
  // MUST_PASS_ONE: per filter, the cell after which it asked to skip a column or row, and how much.
  private final Cell[] skipFrom;
  private final Skip[] skipScope;
  /** For transformCell: which filters included the current cell (MUST_PASS_ONE). */
  private final boolean[] included;

  public FilterList(Operator operator, List<Filter> filters) {
    this.operator = operator;
    this.filters = new ArrayList<>(filters);
    this.skipFrom = new Cell[filters.size()];
    this.skipScope = new Skip[filters.size()];
    this.included = new boolean[filters.size()];
  }

  public FilterList(Operator operator, Filter... filters) {
    this(operator, List.of(filters));
  }

  public Operator operator() {
    return operator;
  }

  public List<Filter> filters() {
    return List.copyOf(filters);
  }

  private boolean all() {
    return operator == Operator.MUST_PASS_ALL;
  }

  @Override
  public void setReversed(boolean reversed) {
    super.setReversed(reversed);
    filters.forEach(f -> f.setReversed(reversed));
  }

  @Override
  public void reset() {
    for (int i = 0; i < filters.size(); i++) {
      filters.get(i).reset();
      skipFrom[i] = null;
      skipScope[i] = null;
    }
  }

  @Override
  public boolean filterAllRemaining() {
    if (filters.isEmpty()) {
      return false;
    }
    for (Filter f : filters) {
      boolean done = f.filterAllRemaining();
      if (all() && done) {
        return true;
      }
      if (!all() && !done) {
        return false;
      }
    }
    return !all();
  }

  @Override
  public boolean filterRowKey(Cell first) {
    if (filters.isEmpty()) {
      return false;
    }
    boolean any = false;
    boolean every = true;
    for (Filter f : filters) { // every filter sees the row key, to set its row state
      boolean out = f.filterAllRemaining() || f.filterRowKey(first);
      any |= out;
      every &= out;
    }
    return all() ? any : every;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    if (filters.isEmpty()) {
      return ReturnCode.INCLUDE;
    }
    boolean include = all();
    Skip skip = all() ? Skip.NONE : Skip.ROW;
    boolean asked = false;
    for (int i = 0; i < filters.size(); i++) {
      Filter f = filters.get(i);
      included[i] = false;
      if (all()) {
        if (f.filterAllRemaining()) {
          return ReturnCode.NEXT_ROW;
        }
        ReturnCode rc = f.filterCell(c);
        include &= rc.include;
        skip = rc.skip.compareTo(skip) > 0 ? rc.skip : skip;
        included[i] = rc.include;
      } else {
        if (f.filterAllRemaining() || stillSkipping(i, c)) {
          continue;
        }
        asked = true;
        ReturnCode rc = f.filterCell(c);
        include |= rc.include;
        skip = rc.skip.compareTo(skip) < 0 ? rc.skip : skip;
        included[i] = rc.include;
        if (rc.skip != Skip.NONE) {
          skipFrom[i] = c;
          skipScope[i] = rc.skip;
        }
      }
    }
    if (!all() && !asked) {
      return ReturnCode.SKIP;
    }
    return ReturnCode.of(include, skip);
  }

  /** Whether filter i asked to skip the column or family-row that {@code c} is in. */
  private boolean stillSkipping(int i, Cell c) {
    Cell from = skipFrom[i];
    if (from == null) {
      return false;
    }
    boolean inScope = skipScope[i] == Skip.COLUMN ? from.sameColumn(c) : from.sameRow(c) && from.sameFamily(c);
    if (!inScope) {
      skipFrom[i] = null;
      skipScope[i] = null;
    }
    return inScope;
  }

  @Override
  public Cell transformCell(Cell c) {
    Cell out = c;
    for (int i = 0; i < filters.size(); i++) {
      if (all() || included[i]) {
        out = filters.get(i).transformCell(out);
      }
    }
    return out;
  }

  @Override
  public boolean hasFilterRow() {
    for (Filter f : filters) {
      if (f.hasFilterRow()) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void filterRowCells(List<Cell> cells) {
    for (Filter f : filters) {
      f.filterRowCells(cells);
    }
  }

  @Override
  public boolean filterRow() {
    if (filters.isEmpty()) {
      return false;
    }
    boolean any = false;
    boolean every = true;
    for (Filter f : filters) { // every filter is asked, so each keeps its own count
      boolean out = f.filterRow();
      any |= out;
      every &= out;
    }
    return all() ? any : every;
  }

  @Override
  public Filter fresh() {
    List<Filter> copies = new ArrayList<>();
    for (Filter f : filters) {
      copies.add(f.fresh());
    }
    return withFlags(new FilterList(operator, copies));
  }

  @Override
  public String toString() {
    return "FilterList(" + operator + ", " + filters + ")";
  }
}
