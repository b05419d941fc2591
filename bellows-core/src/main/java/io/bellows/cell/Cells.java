package io.bellows.cell;

import io.bellows.util.Bytes;

/** Factories for cells: real cells from their parts, and search keys for seeking. */
public final class Cells {
  private Cells() {}

  /** Serialized length of a cell with these part lengths. */
  public static int serializedLength(int rowLen, int famLen, int qualLen, int valueLen) {
    return Cell.PREFIX + Cell.KEY_INFRASTRUCTURE + rowLen + famLen + qualLen + valueLen;
  }

  public static Cell create(byte[] row, byte[] family, byte[] qualifier, long ts, CellType type, byte[] value) {
    return create(row, 0, row.length, family, qualifier, 0, qualifier.length, ts, type, value, 0, value.length);
  }

  public static Cell create(
      byte[] row, int rowOff, int rowLen,
      byte[] family,
      byte[] qualifier, int qualOff, int qualLen,
      long ts, CellType type,
      byte[] value, int valueOff, int valueLen) {
    if (rowLen > Cell.MAX_ROW_LENGTH) {
      throw new IllegalArgumentException("row key of " + rowLen + " bytes is longer than " + Cell.MAX_ROW_LENGTH);
    }
    if (family.length > Cell.MAX_FAMILY_LENGTH) {
      throw new IllegalArgumentException("family name longer than " + Cell.MAX_FAMILY_LENGTH + " bytes");
    }
    byte[] b = new byte[serializedLength(rowLen, family.length, qualLen, valueLen)];
    write(b, 0, row, rowOff, rowLen, family, 0, family.length, qualifier, qualOff, qualLen, ts, type.code(), value,
        valueOff, valueLen);
    return new Cell(b, 0, b.length, 0);
  }

  /**
   * Lays a cell out in the serialized layout at {@code dst[off..]} from parts that all lie in {@code
   * src}; returns its length. The caller has checked the parts' lengths and made room.
   */
  public static int write(byte[] dst, int off, byte[] src, int rowOff, int rowLen, int famOff, int famLen,
      int qualOff, int qualLen, long ts, byte typeCode, int valueOff, int valueLen) {
    return write(dst, off, src, rowOff, rowLen, src, famOff, famLen, src, qualOff, qualLen, ts, typeCode, src,
        valueOff, valueLen);
  }

  private static int write(byte[] dst, int off, byte[] row, int rowOff, int rowLen, byte[] family, int famOff,
      int famLen, byte[] qualifier, int qualOff, int qualLen, long ts, byte typeCode, byte[] value, int valueOff,
      int valueLen) {
    int keyLen = Cell.KEY_INFRASTRUCTURE + rowLen + famLen + qualLen;
    int p = off;
    Bytes.putInt(dst, p, keyLen);
    p += 4;
    Bytes.putInt(dst, p, valueLen);
    p += 4;
    Bytes.putShort(dst, p, rowLen);
    p += 2;
    System.arraycopy(row, rowOff, dst, p, rowLen);
    p += rowLen;
    dst[p++] = (byte) famLen;
    System.arraycopy(family, famOff, dst, p, famLen);
    p += famLen;
    System.arraycopy(qualifier, qualOff, dst, p, qualLen);
    p += qualLen;
    Bytes.putLong(dst, p, ts);
    p += 8;
    dst[p++] = typeCode;
    System.arraycopy(value, valueOff, dst, p, valueLen);
    return p + valueLen - off;
  }

  public static Cell put(byte[] row, byte[] family, byte[] qualifier, long ts, byte[] value) {
    return create(row, family, qualifier, ts, CellType.PUT, value);
  }

  /** The search key that sorts before every cell of {@code row}. */
  public static Cell firstOnRow(byte[] row) {
    return create(row, Bytes.EMPTY, Bytes.EMPTY, Long.MAX_VALUE, CellType.MAXIMUM, Bytes.EMPTY);
  }

  /** The search key that sorts before every cell of the column. */
  public static Cell firstOnColumn(byte[] row, byte[] family, byte[] qualifier) {
    return create(row, family, qualifier, Long.MAX_VALUE, CellType.MAXIMUM, Bytes.EMPTY);
  }

  /** The search key that sorts before every cell of the column with timestamp &lt;= ts. */
  public static Cell firstOnColumnAt(byte[] row, byte[] family, byte[] qualifier, long ts) {
    return create(row, family, qualifier, ts, CellType.MAXIMUM, Bytes.EMPTY);
  }

  /** The search key that sorts after every cell of the column (seek past it). */
  public static Cell lastOnColumn(Cell c) {
    return create(
        c.array(), c.rowOffset(), c.rowLength(), c.family(), c.array(), c.qualifierOffset(), c.qualifierLength(),
        Long.MIN_VALUE, CellType.MINIMUM, Bytes.EMPTY, 0, 0);
  }

  /**
   * The search key that sorts after every cell of the cell's row in the cell's family. Seeking to
   * it lands on the next row (families of one store are all equal).
   */
  public static Cell lastOnRow(Cell c) {
    // A qualifier of 0xFF..FF can't be exceeded in byte order by a real one of bounded length,
    // so use the next row's first key instead: row + 0x00 is the smallest row greater than row.
    byte[] next = new byte[c.rowLength() + 1];
    System.arraycopy(c.array(), c.rowOffset(), next, 0, c.rowLength());
    return firstOnRow(next);
  }
}
