package io.bellows.cell;

import io.bellows.util.Bytes;
import java.util.Comparator;

/**
 * The one total order of cells: row, family, qualifier ascending (unsigned bytes); timestamp
 * descending (newest first); type code descending (tombstones before the values they mask); sequence
 * id descending (the later write first). Two cells compare equal only if they are the same write.
 */
public final class CellComparator implements Comparator<Cell> {
  public static final CellComparator INSTANCE = new CellComparator();

  private CellComparator() {}

  @Override
  public int compare(Cell a, Cell b) {
    int c = compareKeys(a, b);
    if (c != 0) {
      return c;
    }
    return Long.compare(b.seqId(), a.seqId());
  }

  /**
   * Whether two cells are the same write: {@code compare(a, b) == 0}, i.e. equal sequence ids and
   * equal key bytes. Cheaper than the comparison when they are not: cells next to each other in one
   * source usually share the row, often the sequence id and timestamp, and differ at the end of the
   * column, which is checked before the rest of the key.
   */
  public static boolean sameWrite(Cell a, Cell b) {
    if (a.seqId() != b.seqId() || a.rowPrefix() != b.rowPrefix()) {
      return false;
    }
    byte[] x = a.array();
    byte[] y = b.array();
    int xo = a.offset();
    int yo = b.offset();
    if (x == y && xo == yo) {
      return true;
    }
    int keyLen = Bytes.getInt(x, xo);
    if (keyLen != Bytes.getInt(y, yo)) {
      return false;
    }
    int xKey = xo + Cell.PREFIX;
    int yKey = yo + Cell.PREFIX;
    // The eight bytes just before the timestamp: the column's last bytes (the key is at least 13 long).
    int tail = keyLen - 9 - 8;
    if (tail >= 0 && Bytes.getLong(x, xKey + tail) != Bytes.getLong(y, yKey + tail)) {
      return false;
    }
    return Bytes.equals(x, xKey, keyLen, y, yKey, keyLen);
  }

  /** Compares everything but the sequence id; the rows' prefixes first (see {@link Cell#rowPrefix()}). */
  public static int compareKeys(Cell a, Cell b) {
    long ap = a.rowPrefix();
    long bp = b.rowPrefix();
    if (ap != bp) {
      return Long.compareUnsigned(ap, bp);
    }
    return compareKeys(a.array(), a.offset(), b.array(), b.offset());
  }

  /**
   * Compares the keys of two serialized cells that start (at their keyLength field) at the given
   * offsets. Works on any array holding cells in the {@link Cell} layout.
   */
  public static int compareKeys(byte[] a, int aCell, byte[] b, int bCell) {
    int aKeyLen = Bytes.getInt(a, aCell);
    int bKeyLen = Bytes.getInt(b, bCell);
    int aKey = aCell + Cell.PREFIX;
    int bKey = bCell + Cell.PREFIX;
    return compareKeyBytes(a, aKey, aKeyLen, b, bKey, bKeyLen);
  }

  /**
   * Compares two keys given as (array, offset of the rowLength field, key length). The sorted-file
   * format stores keys in this form, without the cell's 8-byte prefix.
   */
  public static int compareKeyBytes(byte[] a, int aKey, int aKeyLen, byte[] b, int bKey, int bKeyLen) {
    int aRowLen = Bytes.getShort(a, aKey);
    int bRowLen = Bytes.getShort(b, bKey);
    int c;
    // With rows of equal length and families of equal length (fixed-width row keys, one family per
    // store: the common case), row, family length, family and qualifier compare as one range: the
    // first difference inside the row decides as the row comparison would, then inside the family,
    // then the qualifier, whose length alone makes the ranges' lengths differ. One pass instead of three.
    if (aRowLen == bRowLen && a[aKey + 2 + aRowLen] == b[bKey + 2 + bRowLen]) {
      c = Bytes.compare(a, aKey + 2, aKeyLen - 11, b, bKey + 2, bKeyLen - 11);
    } else {
      c = compareColumnParts(a, aKey, aKeyLen, aRowLen, b, bKey, bKeyLen, bRowLen);
    }
    if (c != 0) {
      return c;
    }
    long aTs = Bytes.getLong(a, aKey + aKeyLen - 9);
    long bTs = Bytes.getLong(b, bKey + bKeyLen - 9);
    c = Long.compare(bTs, aTs);
    if (c != 0) {
      return c;
    }
    return Integer.compare(b[bKey + bKeyLen - 1] & 0xff, a[aKey + aKeyLen - 1] & 0xff);
  }

  /** Row, then family, then qualifier, each as its own range (rows or families of different lengths). */
  private static int compareColumnParts(byte[] a, int aKey, int aKeyLen, int aRowLen,
      byte[] b, int bKey, int bKeyLen, int bRowLen) {
    int c = Bytes.compare(a, aKey + 2, aRowLen, b, bKey + 2, bRowLen);
    if (c != 0) {
      return c;
    }
    int aFamLenOff = aKey + 2 + aRowLen;
    int bFamLenOff = bKey + 2 + bRowLen;
    int aFamLen = a[aFamLenOff];
    int bFamLen = b[bFamLenOff];
    c = Bytes.compare(a, aFamLenOff + 1, aFamLen, b, bFamLenOff + 1, bFamLen);
    if (c != 0) {
      return c;
    }
    int aQualOff = aFamLenOff + 1 + aFamLen;
    int bQualOff = bFamLenOff + 1 + bFamLen;
    int aQualLen = aKey + aKeyLen - 9 - aQualOff;
    int bQualLen = bKey + bKeyLen - 9 - bQualOff;
    return Bytes.compare(a, aQualOff, aQualLen, b, bQualOff, bQualLen);
  }

  /** Compares only the rows of two cells. */
  public static int compareRows(Cell a, Cell b) {
    long ap = a.rowPrefix();
    long bp = b.rowPrefix();
    if (ap != bp) {
      return Long.compareUnsigned(ap, bp);
    }
    return Bytes.compare(a.array(), a.rowOffset(), a.rowLength(), b.array(), b.rowOffset(), b.rowLength());
  }

  /** Compares a cell's row with a row given as bytes. */
  public static int compareRow(Cell a, byte[] row) {
    return Bytes.compare(a.array(), a.rowOffset(), a.rowLength(), row, 0, row.length);
  }

  /** Compares row, family and qualifier only. */
  public static int compareColumns(Cell a, Cell b) {
    int c = compareRows(a, b);
    if (c != 0) {
      return c;
    }
    c = Bytes.compare(a.array(), a.familyOffset(), a.familyLength(), b.array(), b.familyOffset(), b.familyLength());
    if (c != 0) {
      return c;
    }
    return Bytes.compare(
        a.array(), a.qualifierOffset(), a.qualifierLength(), b.array(), b.qualifierOffset(), b.qualifierLength());
  }
}
