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
  /** The Bloom filter in the classic layout (at most one Bloom block per file; versions 1 and 2). */
  BLOOM((byte) 4),
  /** The file metadata (one per file). */
  META((byte) 5),
  /** The Bloom filter in the blocked layout (at most one Bloom block per file; since version 3). */
  BLOCKED_BLOOM((byte) 6);

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
