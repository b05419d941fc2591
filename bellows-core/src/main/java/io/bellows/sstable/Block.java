package io.bellows.sstable;

import io.bellows.cache.CachedBlock;

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
  /** The block cache's copy this block is, or was just put as; null if it did not go through a cache. */
  private final CachedBlock cached;
  private final boolean cacheHit;

  public Block(BlockType type, long offset, int onDiskSize, byte[] payload) {
    this(type, offset, onDiskSize, payload, null, false);
  }

  Block(BlockType type, long offset, int onDiskSize, byte[] payload, CachedBlock cached, boolean cacheHit) {
    this.type = type;
    this.offset = offset;
    this.onDiskSize = onDiskSize;
    this.payload = payload;
    this.cached = cached;
    this.cacheHit = cacheHit;
  }

  /**
   * The block cache's entry for this block (found there, or offered to it after the read), which
   * carries the KV cache's per-row access counts; null when the read did not go through a cache.
   */
  public CachedBlock cached() {
    return cached;
  }

  /** Whether the block came from the block cache rather than from the file. */
  public boolean cacheHit() {
    return cacheHit;
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
