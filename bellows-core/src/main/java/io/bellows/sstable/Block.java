package io.bellows.sstable;

/**
 * One block of a sorted file after checksum verification and decompression: its type, where it lies
 * in the file and its uncompressed payload. Immutable (the payload array is never modified after
 * construction), so a block cache may share one instance between threads.
 */
public final class Block {
  private final BlockType type;
  private final long offset;
  private final int onDiskSize;
  private final byte[] payload;

  public Block(BlockType type, long offset, int onDiskSize, byte[] payload) {
    this.type = type;
    this.offset = offset;
    this.onDiskSize = onDiskSize;
    this.payload = payload;
  }

  public BlockType type() {
    return type;
  }

  /** Offset of the block's first byte (its type byte) in the file. */
  public long offset() {
    return offset;
  }

  /** Bytes the block occupies in the file: header, stored payload and checksum. */
  public int onDiskSize() {
    return onDiskSize;
  }

  /** The uncompressed payload (shared; never modify it). */
  public byte[] payload() {
    return payload;
  }

  /** Memory this block takes when cached, roughly. */
  public long heapSize() {
    return payload.length + 48L;
  }
}
