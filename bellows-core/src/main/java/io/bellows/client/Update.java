package io.bellows.client;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.config.Durability;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A read-modify-write of columns of one row ({@link Increment}, {@link Append}): every column is
 * computed from its current value and written together, atomically, under the row lock.
 */
public abstract class Update {
  protected final byte[] row;
  protected final List<ColumnUpdate> columns = new ArrayList<>();
  protected Durability durability = Durability.USE_DEFAULT;
  private boolean returnResults = true;
  private long minTimestamp;
  private long maxTimestamp = Long.MAX_VALUE;

  protected Update(byte[] row) {
    this.row = Mutation.checkedRowCopy(row);
  }

  public byte[] row() {
    return row.clone();
  }

  /** The columns, in the order added, each reading its current value in the time range. */
  public List<ColumnUpdate> columns() {
    if (minTimestamp == 0 && maxTimestamp == Long.MAX_VALUE) {
      return Collections.unmodifiableList(columns);
    }
    List<ColumnUpdate> out = new ArrayList<>(columns.size());
    for (ColumnUpdate u : columns) {
      out.add(u.timeRange(minTimestamp, maxTimestamp));
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * Reads each column's current value from the versions in {@code [min, maxExclusive)} only (as
   * HBase's {@code Increment.setTimeRange}); the new value is still written at now or later.
   */
  public Update setTimeRange(long min, long maxExclusive) {
    if (min < 0 || maxExclusive < min) {
      throw new IllegalArgumentException("bad time range [" + min + ", " + maxExclusive + ")");
    }
    this.minTimestamp = min;
    this.maxTimestamp = maxExclusive;
    return this;
  }

  public Durability durability() {
    return durability;
  }

  public boolean returnResults() {
    return returnResults;
  }

  /** False: the call returns an empty {@link Result} (the new values do not travel back). */
  public Update setReturnResults(boolean v) {
    this.returnResults = v;
    return this;
  }

  public Update setDurability(Durability d) {
    this.durability = d;
    return this;
  }

  public boolean isEmpty() {
    return columns.isEmpty();
  }
}
