package io.bellows.client;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.config.Durability;

/**
 * Appends bytes to columns of one row, all together atomically (an absent column counts as empty).
 * The {@link Result} holds the new values.
 */
public final class Append extends Update {
  public Append(byte[] row) {
    super(row);
  }

  public Append addColumn(byte[] family, byte[] qualifier, byte[] suffix) {
    Mutation.checkFamily(family);
    if (suffix == null) {
      throw new IllegalArgumentException("the appended value must not be null");
    }
    columns.add(ColumnUpdate.append(family, qualifier, suffix));
    return this;
  }

  @Override
  public Append setDurability(Durability d) {
    super.setDurability(d);
    return this;
  }

  @Override
  public Append setTimeRange(long min, long maxExclusive) {
    super.setTimeRange(min, maxExclusive);
    return this;
  }

  @Override
  public Append setReturnResults(boolean v) {
    super.setReturnResults(v);
    return this;
  }
}
