package io.bellows.client;

import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.config.Durability;
import io.bellows.util.Bytes;

/** Writes one or more columns of one row; all become visible together. */
public final class Put extends Mutation {
  private final long timestamp;

  public Put(byte[] row) {
    this(row, LATEST_TIMESTAMP);
  }

  /** A put whose cells default to {@code timestamp}. */
  public Put(byte[] row, long timestamp) {
    super(row);
    checkTimestamp(timestamp);
    this.timestamp = timestamp;
  }

  public Put(String row) {
    this(Bytes.of(row));
  }

  public Put addColumn(byte[] family, byte[] qualifier, byte[] value) {
    return addColumn(family, qualifier, timestamp, value);
  }

  public Put addColumn(byte[] family, byte[] qualifier, long ts, byte[] value) {
    checkFamily(family);
    checkTimestamp(ts);
    if (value == null) {
      throw new IllegalArgumentException("value must not be null (use a Delete to remove a column)");
    }
    cells.add(Cells.create(row, family, nonNull(qualifier), ts, CellType.PUT, value));
    return this;
  }

  public Put addColumn(String family, String qualifier, String value) {
    return addColumn(Bytes.of(family), Bytes.of(qualifier), Bytes.of(value));
  }

  @Override
  public Put setDurability(Durability d) {
    super.setDurability(d);
    return this;
  }
}
