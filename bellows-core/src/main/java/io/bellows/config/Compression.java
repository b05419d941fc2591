package io.bellows.config;

/** Block compression of sorted files. Codes are stored on disk and never reused. */
public enum Compression {
  NONE((byte) 0),
  LZ4((byte) 1),
  ZSTD((byte) 2);

  private final byte code;

  Compression(byte code) {
    this.code = code;
  }

  public byte code() {
    return code;
  }

  public static Compression fromCode(byte code) {
    for (Compression c : values()) {
      if (c.code == code) {
        return c;
      }
    }
    throw new IllegalArgumentException("unknown compression code " + code);
  }
}
