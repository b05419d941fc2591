package io.bellows.scan;

import io.bellows.cell.Cell;
import io.bellows.util.Bytes;

/**
 * The rows a sorted file or an immutable memory segment spans, kept where a get's key-range check
 * finds them in one object: the first and last row's bytes, and each one's first 8 bytes as an
 * unsigned number. A get compares its row's prefix ({@link ScanQuery#rowPrefix}) with the two
 * numbers and reaches for the bytes only when a prefix is equal. Every get checks every file and
 * segment of its family this way, and on keys spread over the whole key space none is ruled out by
 * it: following the metadata to the first and last key cells and their arrays, cold in memory, cost
 * a get as much as its Bloom filters. Immutable.
 */
public final class RowRange {
  private final byte[] first;
  private final byte[] last;
  private final long firstPrefix;
  private final long lastPrefix;

  private RowRange(byte[] first, byte[] last) {
    this.first = first;
    this.last = last;
    this.firstPrefix = Bytes.prefix64(first, 0, first.length);
    this.lastPrefix = Bytes.prefix64(last, 0, last.length);
  }

  /** The rows from {@code firstKey}'s to {@code lastKey}'s (copied). */
  public static RowRange of(Cell firstKey, Cell lastKey) {
    return new RowRange(rowOf(firstKey), rowOf(lastKey));
  }

  private static byte[] rowOf(Cell c) {
    byte[] row = new byte[c.rowLength()];
    System.arraycopy(c.array(), c.rowOffset(), row, 0, row.length);
    return row;
  }

  /** Whether a read of {@code q}'s rows may find one here (inclusive at both ends). */
  public boolean overlaps(ScanQuery q) {
    if (q.isSingleRow()) {
      return holds(q.startRow(), q.rowPrefix());
    }
    if (q.pastStop(first, 0, first.length)) {
      return false;
    }
    byte[] start = q.startRow();
    if (start.length > 0) {
      int c = Bytes.compare(last, 0, last.length, start, 0, start.length);
      return c > 0 || (c == 0 && q.startInclusive());
    }
    return true;
  }

  /** Whether {@code row}, whose {@link Bytes#prefix64} is {@code prefix}, lies within the range. */
  public boolean holds(byte[] row, long prefix) {
    int f = Long.compareUnsigned(prefix, firstPrefix);
    if (f < 0 || (f == 0 && Bytes.compare(row, 0, row.length, first, 0, first.length) < 0)) {
      return false;
    }
    int l = Long.compareUnsigned(prefix, lastPrefix);
    return l < 0 || (l == 0 && Bytes.compare(row, 0, row.length, last, 0, last.length) <= 0);
  }
}
