package io.bellows.bench;

import io.bellows.cell.Cells;
import io.bellows.util.Bytes;

/**
 * The rows the end-to-end suites write: {@code fields} columns of {@code fieldLength}-byte values in
 * family {@code f}, qualifiers named as YCSB names its fields ({@code field0}, {@code field1}, …),
 * row keys as {@link PaperRows} makes them. The paper's rows are 4 × 25 B ({@link #PAPER}); YCSB's
 * core workloads default to 10 × 100 B. Immutable.
 */
record RowShape(int fields, int fieldLength) {
  /** The Accordion paper's rows: 4 columns of 25 bytes. */
  static final RowShape PAPER = new RowShape(PaperRows.CELLS_PER_ROW, PaperRows.VALUE_LENGTH);
  /** Most columns a row may have. */
  static final int MAX_FIELDS = 1000;
  /** Longest value a column may have. */
  static final int MAX_FIELD_LENGTH = 1 << 20;

  RowShape {
    if (fields < 1 || fields > MAX_FIELDS) {
      throw new IllegalArgumentException("--fields takes 1 to " + MAX_FIELDS + ", not " + fields);
    }
    if (fieldLength < 1 || fieldLength > MAX_FIELD_LENGTH) {
      throw new IllegalArgumentException("--field-length takes 1 to " + MAX_FIELD_LENGTH + " bytes, not "
          + fieldLength);
    }
  }

  /** Qualifier {@code q} ({@code 0 ≤ q < fields}), freshly allocated: {@code "field" + q}. */
  byte[] qualifier(int q) {
    if (q < 0 || q >= fields) {
      throw new IndexOutOfBoundsException(q);
    }
    return q < PaperRows.CELLS_PER_ROW ? PaperRows.qualifier(q).clone() : Bytes.of("field" + q);
  }

  /** Serialized bytes of one row's cells: the user bytes a put carries (the paper's row: 4 × 76). */
  long rowBytes() {
    long sum = 0;
    for (int q = 0; q < fields; q++) {
      sum += Cells.serializedLength(PaperRows.ROW_KEY_LENGTH, PaperRows.FAMILY.length, qualifier(q).length,
          fieldLength);
    }
    return sum;
  }

  /** Rows per client batch that carry at least {@code bytes} (at least one row). */
  int rowsForBytes(long bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("--batch-bytes must be positive: " + bytes);
    }
    long rows = (bytes + rowBytes() - 1) / rowBytes();
    return (int) Math.min(Integer.MAX_VALUE, rows);
  }

  @Override
  public String toString() {
    return fields + " × " + fieldLength + " B";
  }
}
