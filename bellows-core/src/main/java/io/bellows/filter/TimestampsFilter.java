package io.bellows.filter;

import io.bellows.cell.Cell;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Keeps the versions whose timestamp is one of a list. As in HBase, versions are counted before
 * filters: with one version per column asked for, only the newest version is a candidate.
 */
public final class TimestampsFilter extends Filter {
  private final TreeSet<Long> timestamps;

  public TimestampsFilter(List<Long> timestamps) {
    this.timestamps = new TreeSet<>(timestamps);
  }

  public List<Long> timestamps() {
    return new ArrayList<>(timestamps);
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    if (timestamps.contains(c.timestamp())) {
      return ReturnCode.INCLUDE;
    }
    if (timestamps.isEmpty() || c.timestamp() < timestamps.first()) {
      return ReturnCode.NEXT_COL; // versions only get older within a column
    }
    return ReturnCode.SKIP;
  }

  @Override
  public Filter fresh() {
    return withFlags(new TimestampsFilter(timestamps()));
  }

  @Override
  public String toString() {
    return "TimestampsFilter(" + timestamps + ")";
  }
}
