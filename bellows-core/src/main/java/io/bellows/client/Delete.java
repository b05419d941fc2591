package io.bellows.client;

import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.config.Durability;
import io.bellows.util.Bytes;

/**
 * Removes data of one row by writing tombstones, as in HBase. With no column or family added, the
 * whole row (every family) up to the delete's timestamp is removed. Tombstones mask matching cells
 * with timestamp &lt;= theirs, including cells written later with such timestamps, until a major
 * compaction removes the tombstone.
 */
public final class Delete extends Mutation {
  private final long timestamp;

  public Delete(byte[] row) {
    this(row, LATEST_TIMESTAMP);
  }

  public Delete(byte[] row, long timestamp) {
    super(row);
    checkTimestamp(timestamp);
    this.timestamp = timestamp;
  }

  public Delete(String row) {
    this(Bytes.of(row));
  }

  /** The timestamp of a whole-row delete. */
  public long timestamp() {
    return timestamp;
  }

  /** Whether this deletes the whole row (no family or column named). */
  public boolean isWholeRow() {
    return cells.isEmpty();
  }

  /** Every version of every column of the family. */
  public Delete addFamily(byte[] family) {
    return addFamily(family, timestamp);
  }

  /** Every version of every column of the family with timestamp &lt;= ts. */
  public Delete addFamily(byte[] family, long ts) {
    checkFamily(family);
    cells.add(Cells.create(row, family, Bytes.EMPTY, ts, CellType.DELETE_FAMILY, Bytes.EMPTY));
    return this;
  }

  /** Every version of the column. */
  public Delete addColumns(byte[] family, byte[] qualifier) {
    return addColumns(family, qualifier, timestamp);
  }

  /** Every version of the column with timestamp &lt;= ts. */
  public Delete addColumns(byte[] family, byte[] qualifier, long ts) {
    checkFamily(family);
    cells.add(Cells.create(row, family, nonNull(qualifier), ts, CellType.DELETE_COLUMN, Bytes.EMPTY));
    return this;
  }

  /** The latest version of the column (the engine looks up its timestamp when applying). */
  public Delete addColumn(byte[] family, byte[] qualifier) {
    return addColumn(family, qualifier, LATEST_TIMESTAMP);
  }

  /** Exactly the version of the column with timestamp ts. */
  public Delete addColumn(byte[] family, byte[] qualifier, long ts) {
    checkFamily(family);
    checkTimestamp(ts);
    cells.add(Cells.create(row, family, nonNull(qualifier), ts, CellType.DELETE, Bytes.EMPTY));
    return this;
  }

  @Override
  public Delete setDurability(Durability d) {
    super.setDurability(d);
    return this;
  }
}
