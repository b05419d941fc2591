package io.bellows.sstable;

/**
 * What a block of a sorted file holds. The code is the first byte of every block on disk; codes are
 * never reused. Immutable.
 */
public enum BlockType {
  /** Cells, key-prefix compressed, with restart points. */
  DATA((byte) 1),
  /** A non-root index block (leaf or intermediate level). */
  INDEX((byte) 2),
  /** The root of the block index (one per file). */
  ROOT_INDEX((byte) 3),
  /** The Bloom filter (at most one per file). */
  BLOOM((byte) 4),
  /** The file metadata (one per file). */
  META((byte) 5);

  private final byte code;

  BlockType(byte code) {
    this.code = code;
  }

  public byte code() {
    return code;
  }

  /** Decodes a stored type byte, or returns null for an unknown code (the caller reports corruption). */
  public static BlockType fromCodeOrNull(byte code) {
    for (BlockType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    return null;
  }
}
