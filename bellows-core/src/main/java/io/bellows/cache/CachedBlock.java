package io.bellows.cache;

import java.util.function.IntSupplier;

/**
 * A verified, decompressed block as a cache holds it: its kind, the bytes it occupies in the file
 * and its payload. The payload is never modified after construction, so one instance is shared by
 * every reader that finds it.
 *
 * <p>Beside the bytes, an instance in the on-heap cache carries the KV cache's bookkeeping (the SAC
 * 2024 paper §4.1): per-row access counts, created on the first get that reads the block, and the
 * eviction-candidate mark a block gets when one of its rows was promoted. Both belong to this cached
 * copy only; a block read again from the file or from L2 starts afresh.
 */
public final class CachedBlock {
  /** Fixed heap cost of a cached entry beside the payload: the block, key, map node and array headers. */
  static final long OVERHEAD = 128;

  private final BlockKind kind;
  private final int onDiskSize;
  private final byte[] payload;
  private volatile RowAccessCounts accessCounts;
  private volatile boolean evictionCandidate;

  public CachedBlock(BlockKind kind, int onDiskSize, byte[] payload) {
    if (kind == null || payload == null) {
      throw new NullPointerException("kind and payload are required");
    }
    this.kind = kind;
    this.onDiskSize = onDiskSize;
    this.payload = payload;
  }

  public BlockKind kind() {
    return kind;
  }

  public int onDiskSize() {
    return onDiskSize;
  }

  public byte[] payload() {
    return payload;
  }

  /** Heap bytes this block takes in the on-heap cache, roughly (payload plus object overheads). */
  public long heapSize() {
    return payload.length + OVERHEAD;
  }

  /**
   * The block's per-row access counts, created on first use; {@code rowCount} (a walk of the block
   * the caller supplies) is asked for only if a row's count passes the promotion minimum. Two
   * threads may race to create them; one set wins.
   */
  public RowAccessCounts accessCounts(IntSupplier rowCount) {
    RowAccessCounts c = accessCounts;
    if (c == null) {
      synchronized (this) {
        c = accessCounts;
        if (c == null) {
          c = new RowAccessCounts(rowCount);
          accessCounts = c;
        }
      }
    }
    return c;
  }

  /** Whether one of the block's rows went to the KV cache and the block was not read since. */
  public boolean isEvictionCandidate() {
    return evictionCandidate;
  }

  public void markEvictionCandidate() {
    evictionCandidate = true;
  }

  /** A read of the block keeps it: it is still useful where it is. */
  void clearEvictionCandidate() {
    if (evictionCandidate) {
      evictionCandidate = false;
    }
  }
}
