package io.bellows.cache;

/**
 * A verified, decompressed block as a cache holds it: its kind, the bytes it occupies in the file
 * and its payload. Immutable: the payload is never modified after construction, so one instance is
 * shared by every reader that finds it.
 */
public record CachedBlock(BlockKind kind, int onDiskSize, byte[] payload) {
  /** Fixed heap cost of a cached entry beside the payload: the block, key, map node and array headers. */
  static final long OVERHEAD = 128;

  public CachedBlock {
    if (kind == null || payload == null) {
      throw new NullPointerException("kind and payload are required");
    }
  }

  /** Heap bytes this block takes in the on-heap cache, roughly (payload plus object overheads). */
  public long heapSize() {
    return payload.length + OVERHEAD;
  }
}
