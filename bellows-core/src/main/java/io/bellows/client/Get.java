package io.bellows.client;

import io.bellows.util.Bytes;

/** Reads one row: all of it, or the named families and columns. */
public final class Get extends Query<Get> {
  private final byte[] row;

  public Get(byte[] row) {
    if (row == null || row.length == 0) {
      throw new IllegalArgumentException("row key must not be null or empty");
    }
    this.row = row.clone();
  }

  public Get(String row) {
    this(Bytes.of(row));
  }

  public byte[] row() {
    return row.clone();
  }
}
