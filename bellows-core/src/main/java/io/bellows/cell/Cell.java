package io.bellows.cell;

import io.bellows.util.Bytes;

/**
 * One timestamped version of one column of one row, or a tombstone, as a view over its serialized
 * bytes. The byte layout (see {@code docs/FORMAT.md}, "Cell") is shared by the memory store, the
 * WAL and sorted files, so cells move between them without re-encoding:
 *
 * <pre>
 *   int32  keyLength     (bytes from rowLength through type)
 *   int32  valueLength
 *   int16  rowLength
 *   byte[] row
 *   int8   familyLength
 *   byte[] family
 *   byte[] qualifier     (keyLength - 2 - rowLength - 1 - familyLength - 9 bytes)
 *   int64  timestamp
 *   int8   type          ({@link CellType} code)
 *   byte[] value
 * </pre>
 *
 * <p>The sequence id is not part of the serialized bytes: it is the engine-wide number of the
 * mutation that wrote the cell, kept beside the bytes (in the WAL record header, per cell in sorted
 * files, in the memory store's index). It is {@code long} everywhere.
 *
 * <p>A cell is immutable apart from its sequence id, which the region stamps once before the cell is
 * published to the memory store; a published cell is never modified.
 */
public final class Cell {
  /** Bytes of the fixed prefix: keyLength and valueLength. */
  public static final int PREFIX = 8;
  /** Bytes of the key that are not row/family/qualifier: rowLength, familyLength, ts, type. */
  public static final int KEY_INFRASTRUCTURE = 2 + 1 + 8 + 1;
  /** Longest row key: 32 KiB (the row length is stored as an unsigned 16-bit number). */
  public static final int MAX_ROW_LENGTH = 32 * 1024;
  public static final int MAX_FAMILY_LENGTH = 127;

  private final byte[] bytes;
  private final int offset;
  private final int length;
  private final long rowPrefix;
  private long seqId;

  public Cell(byte[] bytes, int offset, int length, long seqId) {
    this.bytes = bytes;
    this.offset = offset;
    this.length = length;
    this.seqId = seqId;
    this.rowPrefix = rowPrefix(bytes, offset, length);
  }

  public Cell(byte[] bytes) {
    this(bytes, 0, bytes.length, 0);
  }

  /** The array holding the serialized cell (shared; never modify it). */
  public byte[] array() {
    return bytes;
  }

  public int offset() {
    return offset;
  }

  /** Serialized length: {@code 8 + keyLength + valueLength}. */
  public int length() {
    return length;
  }

  public long seqId() {
    return seqId;
  }

  /**
   * The row's first eight bytes as an unsigned big-endian number, zero-padded when the row is
   * shorter: an abbreviated key, kept in the object so that most comparisons of two cells never read
   * their arrays (a skiplist insert compares against a dozen cells it would otherwise each fetch
   * from memory). If two cells' prefixes differ, their rows differ and the prefixes order them as
   * the rows do (a shorter row is padded with zeros, the least byte); equal prefixes decide nothing.
   */
  public long rowPrefix() {
    return rowPrefix;
  }

  /** {@link #rowPrefix()} of the serialized cell at {@code off}; 0 for bytes too short to hold a row length. */
  static long rowPrefix(byte[] b, int off, int len) {
    int start = off + PREFIX + 2;
    int end = Math.min(off + len, b.length);
    if (off < 0 || start > end) {
      return 0; // not a cell; validation reports it, comparisons must not throw first
    }
    return Bytes.prefix64(b, start, Math.min(Math.min(Bytes.getShort(b, off + PREFIX), 8), end - start));
  }

  /** Stamps the sequence id; only the region does this, before publication. */
  public void setSeqId(long seqId) {
    this.seqId = seqId;
  }

  public int keyLength() {
    return Bytes.getInt(bytes, offset);
  }

  public int keyOffset() {
    return offset + PREFIX;
  }

  public int valueLength() {
    return Bytes.getInt(bytes, offset + 4);
  }

  public int rowOffset() {
    return offset + PREFIX + 2;
  }

  public int rowLength() {
    return Bytes.getShort(bytes, offset + PREFIX);
  }

  public int familyLengthOffset() {
    return rowOffset() + rowLength();
  }

  public int familyLength() {
    return bytes[familyLengthOffset()];
  }

  public int familyOffset() {
    return familyLengthOffset() + 1;
  }

  public int qualifierOffset() {
    return familyOffset() + familyLength();
  }

  public int qualifierLength() {
    return keyLength() - KEY_INFRASTRUCTURE - rowLength() - familyLength();
  }

  public int timestampOffset() {
    return keyOffset() + keyLength() - 9;
  }

  public long timestamp() {
    return Bytes.getLong(bytes, timestampOffset());
  }

  public byte typeCode() {
    return bytes[keyOffset() + keyLength() - 1];
  }

  public CellType type() {
    return CellType.fromCode(typeCode());
  }

  public boolean isDelete() {
    byte t = typeCode();
    return t == CellType.DELETE.code() || t == CellType.DELETE_COLUMN.code() || t == CellType.DELETE_FAMILY.code();
  }

  public int valueOffset() {
    return keyOffset() + keyLength();
  }

  public byte[] row() {
    return copy(rowOffset(), rowLength());
  }

  public byte[] family() {
    return copy(familyOffset(), familyLength());
  }

  public byte[] qualifier() {
    return copy(qualifierOffset(), qualifierLength());
  }

  public byte[] value() {
    return copy(valueOffset(), valueLength());
  }

  /** A copy of exactly this cell's serialized bytes. */
  public byte[] toBytes() {
    return copy(offset, length);
  }

  /** Bytes this cell occupies as data (serialized length), excluding any index or object overhead. */
  public long dataSize() {
    return length;
  }

  private byte[] copy(int off, int len) {
    byte[] out = new byte[len];
    System.arraycopy(bytes, off, out, 0, len);
    return out;
  }

  /** Whether this cell's row is {@code row}. */
  public boolean isRow(byte[] row) {
    return Bytes.equals(bytes, rowOffset(), rowLength(), row, 0, row.length);
  }

  public boolean sameRow(Cell o) {
    if (rowPrefix != o.rowPrefix) {
      return false;
    }
    return Bytes.equals(bytes, rowOffset(), rowLength(), o.bytes, o.rowOffset(), o.rowLength());
  }

  public boolean sameFamily(Cell o) {
    return Bytes.equals(bytes, familyOffset(), familyLength(), o.bytes, o.familyOffset(), o.familyLength());
  }

  public boolean sameColumn(Cell o) {
    return columnRelation(o) == SAME_COLUMN;
  }

  /** {@link #columnRelation}: the other cell is in another row. */
  public static final int OTHER_ROW = 0;
  /** {@link #columnRelation}: the other cell is in the same row, another column. */
  public static final int SAME_ROW = 1;
  /** {@link #columnRelation}: the other cell is in the same row, family and qualifier. */
  public static final int SAME_COLUMN = 2;

  /**
   * Where {@code o} stands relative to this cell's column: {@link #OTHER_ROW}, {@link #SAME_ROW} or
   * {@link #SAME_COLUMN}, decoding each cell's lengths once. Family and qualifier are compared as
   * one range (family length byte, family, qualifier): with equal total lengths, equal ranges mean
   * equal family lengths, so equal families and qualifiers.
   */
  public int columnRelation(Cell o) {
    if (rowPrefix != o.rowPrefix) {
      return OTHER_ROW;
    }
    return columnRelation(bytes, offset, o.bytes, o.offset);
  }

  /** {@link #columnRelation(Cell)} of the serialized cells starting at {@code aCell} in {@code a} and {@code bCell} in {@code b}. */
  public static int columnRelation(byte[] a, int aCell, byte[] b, int bCell) {
    int aKey = aCell + PREFIX;
    int bKey = bCell + PREFIX;
    int rowLen = Bytes.getShort(a, aKey);
    if (rowLen != Bytes.getShort(b, bKey) || !Bytes.equals(a, aKey + 2, rowLen, b, bKey + 2, rowLen)) {
      return OTHER_ROW;
    }
    int aRest = Bytes.getInt(a, aCell) - 2 - rowLen - 9;
    int bRest = Bytes.getInt(b, bCell) - 2 - rowLen - 9;
    int start = 2 + rowLen;
    return Bytes.equals(a, aKey + start, aRest, b, bKey + start, bRest) ? SAME_COLUMN : SAME_ROW;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Cell)) {
      return false;
    }
    Cell c = (Cell) o;
    return seqId == c.seqId && Bytes.equals(bytes, offset, length, c.bytes, c.offset, c.length);
  }

  @Override
  public int hashCode() {
    int h = Long.hashCode(seqId);
    for (int i = offset; i < offset + length; i++) {
      h = 31 * h + bytes[i];
    }
    return h;
  }

  @Override
  public String toString() {
    return Bytes.toStringBinary(bytes, rowOffset(), rowLength())
        + "/" + Bytes.toStringBinary(bytes, familyOffset(), familyLength())
        + ":" + Bytes.toStringBinary(bytes, qualifierOffset(), qualifierLength())
        + "/" + timestamp() + "/" + type() + "/seq=" + seqId + "/vlen=" + valueLength();
  }
}
