package io.bellows.cli.stress;

import io.bellows.cell.Cell;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.util.Bytes;
import java.util.List;

/**
 * The rows of a stress run and how a row's content encodes its version: key {@code k} is row
 * {@code k%08d}; a write of version {@code v} puts every column {@code c0..c<n-1>} at timestamp
 * {@code v}, each value starting with {@code v}, the key and the column, then filler derived from
 * them. So a read can tell the version of every column and whether a row is whole.
 */
final class StressRows {
  static final String FAMILY_NAME = "f";
  static final byte[] FAMILY = Bytes.of(FAMILY_NAME);

  private final int columns;
  private final int valueSize;
  private final byte[][] qualifiers;

  StressRows(int columns, int valueSize) {
    if (valueSize < 16) {
      throw new IllegalArgumentException("--value-size must be at least 16 bytes: " + valueSize);
    }
    this.columns = columns;
    this.valueSize = valueSize;
    this.qualifiers = new byte[columns][];
    for (int c = 0; c < columns; c++) {
      qualifiers[c] = Bytes.of("c" + c);
    }
  }

  static byte[] row(int key) {
    return Bytes.of(String.format("k%08d", key));
  }

  /** The key of a row of this run, or -1 if it is not one. */
  static int key(byte[] row) {
    if (row.length != 9 || row[0] != 'k') {
      return -1;
    }
    int k = 0;
    for (int i = 1; i < 9; i++) {
      if (row[i] < '0' || row[i] > '9') {
        return -1;
      }
      k = k * 10 + (row[i] - '0');
    }
    return k;
  }

  Put put(int key, long version) {
    Put p = new Put(row(key), version);
    for (int c = 0; c < columns; c++) {
      p.addColumn(FAMILY, qualifiers[c], version, value(key, version, c));
    }
    return p;
  }

  byte[] value(int key, long version, int column) {
    byte[] v = new byte[valueSize];
    Bytes.putLong(v, 0, version);
    Bytes.putInt(v, 8, key);
    Bytes.putInt(v, 12, column);
    long x = version * 0x9E3779B97F4A7C15L ^ key * 0xC2B2AE3D27D4EB4FL ^ column;
    for (int i = 16; i < valueSize; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      v[i] = (byte) x;
    }
    return v;
  }

  /**
   * The state a read found: {@link ExpectedState#absent} (version 0) for no row, the present state
   * of its version for a whole row; throws {@link BadRow} for a row that is not whole or holds bytes
   * no write of this run made.
   */
  long observed(int key, Result r) throws BadRow {
    if (r.isEmpty()) {
      return ExpectedState.absent(0);
    }
    List<Cell> cells = r.cells();
    if (cells.size() != columns) {
      throw new BadRow("row " + Bytes.str(row(key)) + " has " + cells.size() + " of its " + columns
          + " columns: a half-visible write");
    }
    long version = -1;
    for (int c = 0; c < columns; c++) {
      byte[] v = r.getValue(FAMILY, qualifiers[c]);
      if (v == null || v.length != valueSize) {
        throw new BadRow("row " + Bytes.str(row(key)) + " column c" + c + " is missing or has "
            + (v == null ? 0 : v.length) + " bytes, not " + valueSize);
      }
      long cv = Bytes.getLong(v, 0);
      if (version == -1) {
        version = cv;
      } else if (cv != version) {
        throw new BadRow("row " + Bytes.str(row(key)) + " mixes versions " + version + " and " + cv
            + ": a half-visible write");
      }
      if (!java.util.Arrays.equals(v, value(key, cv, c))) {
        throw new BadRow("row " + Bytes.str(row(key)) + " column c" + c + " holds bytes no write made"
            + " (version field " + cv + ")");
      }
    }
    return ExpectedState.present(version);
  }

  /** A row that is not whole, or not made by this run. */
  static final class BadRow extends Exception {
    BadRow(String message) {
      super(message);
    }
  }
}
