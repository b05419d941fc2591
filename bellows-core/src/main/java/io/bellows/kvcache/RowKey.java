package io.bellows.kvcache;

import java.util.Arrays;

/** A KV cache key: a row of one sorted file (engine-wide file number; the file's bytes never change). */
public final class RowKey {
  final long file;
  final byte[] row;
  private final int hash;

  RowKey(long file, byte[] row) {
    this.file = file;
    this.row = row;
    this.hash = 31 * Long.hashCode(file) + Arrays.hashCode(row);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowKey k && k.file == file && k.hash == hash && Arrays.equals(k.row, row);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return "RowKey{" + file + ", " + row.length + " bytes}";
  }
}
