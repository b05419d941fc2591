package io.bellows.client;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.config.Durability;

/**
 * Adds amounts (negative ones too) to big-endian 8-byte counter columns of one row, all together
 * atomically (an absent column counts as 0). The {@link Result} holds the new values.
 */
public final class Increment extends Update {
  public Increment(byte[] row) {
    super(row);
  }

  public Increment addColumn(byte[] family, byte[] qualifier, long amount) {
    Mutation.checkFamily(family);
    columns.add(ColumnUpdate.increment(family, qualifier, amount));
    return this;
  }

  @Override
  public Increment setDurability(Durability d) {
    super.setDurability(d);
    return this;
  }

  @Override
  public Increment setTimeRange(long min, long maxExclusive) {
    super.setTimeRange(min, maxExclusive);
    return this;
  }

  @Override
  public Increment setReturnResults(boolean v) {
    super.setReturnResults(v);
    return this;
  }
}
