package io.bellows.config;

/** What a sorted file's Bloom filter is keyed on. Codes are stored on disk and never reused. */
public enum BloomType {
  NONE((byte) 0),
  /** Row key: lets a get skip files that do not hold the row. */
  ROW((byte) 1),
  /** Row key + family + qualifier: lets a get of named columns skip files without them. */
  ROWCOL((byte) 2);

  private final byte code;

  BloomType(byte code) {
    this.code = code;
  }

  public byte code() {
    return code;
  }

  public static BloomType fromCode(byte code) {
    for (BloomType c : values()) {
      if (c.code == code) {
        return c;
      }
    }
    throw new IllegalArgumentException("unknown bloom type code " + code);
  }
}
