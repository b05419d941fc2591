package io.bellows.client;

import io.bellows.cell.Cell;
import io.bellows.config.Durability;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A change to one row: the cells to write (values or tombstones) and its durability. */
public abstract class Mutation {
  /** A timestamp placeholder: the engine assigns the current time when the mutation is applied. */
  public static final long LATEST_TIMESTAMP = Long.MAX_VALUE;

  protected final byte[] row;
  protected final List<Cell> cells = new ArrayList<>();
  protected Durability durability = Durability.USE_DEFAULT;

  protected Mutation(byte[] row) {
    this.row = checkedRowCopy(row);
  }

  /** A copy of a row key given to a mutation or update, refused if empty or too long. */
  static byte[] checkedRowCopy(byte[] row) {
    if (row == null || row.length == 0) {
      throw new IllegalArgumentException("row key must not be null or empty");
    }
    if (row.length > Cell.MAX_ROW_LENGTH) {
      throw new IllegalArgumentException(
          "row key of " + row.length + " bytes exceeds the maximum of " + Cell.MAX_ROW_LENGTH + " bytes");
    }
    return row.clone();
  }

  public byte[] row() {
    return row.clone();
  }

  /** The cells, in the order added; timestamps may still be {@link #LATEST_TIMESTAMP}. */
  public List<Cell> cells() {
    return Collections.unmodifiableList(cells);
  }

  public Durability durability() {
    return durability;
  }

  public Mutation setDurability(Durability d) {
    this.durability = d;
    return this;
  }

  public boolean isEmpty() {
    return cells.isEmpty();
  }

  static void checkFamily(byte[] family) {
    if (family == null || family.length == 0) {
      throw new IllegalArgumentException("family must not be null or empty");
    }
  }

  static byte[] nonNull(byte[] b) {
    return b == null ? io.bellows.util.Bytes.EMPTY : b;
  }

  static void checkTimestamp(long ts) {
    if (ts < 0) {
      throw new IllegalArgumentException("timestamp must not be negative: " + ts);
    }
  }
}
