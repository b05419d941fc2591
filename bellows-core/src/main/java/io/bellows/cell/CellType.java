package io.bellows.cell;

/**
 * What a cell is: a value or one of the tombstones. The byte codes are stored on disk and in the
 * WAL and must never be reused. Cells of equal key sort by type code descending, so at one
 * timestamp a tombstone comes before the value it masks.
 */
public enum CellType {
  /** A search key that sorts after every real cell of its key (used to seek to "past this"). */
  MINIMUM((byte) 0),
  /** A value. */
  PUT((byte) 4),
  /** Tombstone for exactly one version (row, family, qualifier, timestamp). */
  DELETE((byte) 8),
  /** Tombstone for every version of a column with timestamp &lt;= its timestamp. */
  DELETE_COLUMN((byte) 12),
  /** Tombstone for every column of a family with timestamp &lt;= its timestamp. */
  DELETE_FAMILY((byte) 14),
  /** A search key that sorts before every real cell of its key. */
  MAXIMUM((byte) 255);

  private final byte code;

  CellType(byte code) {
    this.code = code;
  }

  public byte code() {
    return code;
  }

  public boolean isDelete() {
    return this == DELETE || this == DELETE_COLUMN || this == DELETE_FAMILY;
  }

  private static final CellType[] BY_CODE = new CellType[256];

  static {
    for (CellType t : values()) {
      BY_CODE[t.code & 0xff] = t;
    }
  }

  /** Decodes a stored type byte; throws on an unknown code (a corrupt cell). */
  public static CellType fromCode(byte code) {
    CellType t = BY_CODE[code & 0xff];
    if (t == null) {
      throw new IllegalArgumentException("unknown cell type code " + (code & 0xff));
    }
    return t;
  }
}
