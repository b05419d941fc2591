package io.bellows.client;

import io.bellows.util.Bytes;

/**
 * Reads a range of rows in key order. By default the whole table, start inclusive, stop exclusive.
 * A reversed scan walks from the start row down to the stop row, so its start row is the higher one
 * (as in HBase).
 */
public final class Scan extends Query<Scan> {
  private byte[] startRow = Bytes.EMPTY;
  private boolean startInclusive = true;
  private byte[] stopRow = Bytes.EMPTY;
  private boolean stopInclusive = false;
  private long limit = Long.MAX_VALUE;
  private boolean reversed;

  /** Rows from the start row (the higher bound) down to the stop row. */
  public Scan setReversed(boolean reversed) {
    this.reversed = reversed;
    return this;
  }

  public boolean isReversed() {
    return reversed;
  }

  public Scan withStartRow(byte[] row) {
    return withStartRow(row, true);
  }

  public Scan withStartRow(byte[] row, boolean inclusive) {
    this.startRow = row == null ? Bytes.EMPTY : row.clone();
    this.startInclusive = inclusive;
    return this;
  }

  public Scan withStopRow(byte[] row) {
    return withStopRow(row, false);
  }

  public Scan withStopRow(byte[] row, boolean inclusive) {
    this.stopRow = row == null ? Bytes.EMPTY : row.clone();
    this.stopInclusive = inclusive;
    return this;
  }

  /** At most this many rows. */
  public Scan setLimit(long rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("limit must be at least 1, not " + rows);
    }
    this.limit = rows;
    return this;
  }

  public byte[] startRow() {
    return startRow;
  }

  public boolean startInclusive() {
    return startInclusive;
  }

  public byte[] stopRow() {
    return stopRow;
  }

  public boolean stopInclusive() {
    return stopInclusive;
  }

  public long limit() {
    return limit;
  }
}
