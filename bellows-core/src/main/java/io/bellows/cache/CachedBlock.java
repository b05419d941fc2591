package io.bellows.cache;

/**
 * A verified, decompressed block as a cache holds it: its kind, the bytes it occupies in the file
 * and its payload. The payload is never modified after construction, so one instance is shared by
 * every reader that finds it.
 *
 * <p>Beside the bytes, an instance carries the KV cache's bookkeeping (the SAC 2024 paper §4.1):
 * per-row access counts, created on the first get that reads the block, and the eviction-candidate
 * mark a block gets when one of its rows was promoted. The counts belong to the cached block, not to
 * one heap copy of it: L2 keeps them beside its slot and every copy it serves shares them (as does the
 * copy L1 keeps), so rows of blocks served by L2 are promoted as rows of L1's are. The mark belongs to
 * this copy only (it is L1's eviction order). A block read again from the file starts afresh.
 */
public final class CachedBlock {
  /** Fixed heap cost of a cached entry beside the payload: the block, key, map node and array headers. */
  static final long OVERHEAD = 128;

  private final BlockKind kind;
  private final int onDiskSize;
  private final byte[] payload;
  private final Counts counts;
  private volatile boolean evictionCandidate;

  /** The per-row access counts of one cached block, shared by the heap copies of it (see the class comment). */
  static final class Counts {
    private volatile RowAccessCounts value;
  }

  public CachedBlock(BlockKind kind, int onDiskSize, byte[] payload) {
    this(kind, onDiskSize, requirePayload(payload), new Counts());
  }

  /**
   * A copy of a block that shares {@code counts} with the other copies of it (L2 serves these); a
   * null payload only for {@link #withoutPayload}.
   */
  CachedBlock(BlockKind kind, int onDiskSize, byte[] payload, Counts counts) {
    if (kind == null) {
      throw new NullPointerException("kind is required");
    }
    this.kind = kind;
    this.onDiskSize = onDiskSize;
    this.payload = payload;
    this.counts = counts;
  }

  private static byte[] requirePayload(byte[] payload) {
    if (payload == null) {
      throw new NullPointerException("payload is required");
    }
    return payload;
  }

  /**
   * A block L2 holds, as a get that read it where it lies sees it: its kind, size and counts, no
   * heap payload. Never put in a cache.
   */
  static CachedBlock withoutPayload(BlockKind kind, int onDiskSize, Counts counts) {
    return new CachedBlock(kind, onDiskSize, null, counts);
  }

  /** The block's counts, for L2 to keep beside its slot and share with the copies it serves. */
  Counts counts() {
    return counts;
  }

  public BlockKind kind() {
    return kind;
  }

  public int onDiskSize() {
    return onDiskSize;
  }

  /** The payload; null for a block read in the off-heap cache's memory ({@link #hasPayload}). */
  public byte[] payload() {
    return payload;
  }

  /** Whether this copy holds the payload on the heap (false: read where L2 holds it, see {@link InPlaceRead}). */
  public boolean hasPayload() {
    return payload != null;
  }

  /** Heap bytes this block takes in the on-heap cache, roughly (payload plus object overheads). */
  public long heapSize() {
    return payload.length + OVERHEAD;
  }

  /** The block's per-row access counts, created on first use. Two threads may race to create them; one set wins. */
  public RowAccessCounts accessCounts() {
    RowAccessCounts c = counts.value;
    if (c == null) {
      synchronized (counts) {
        c = counts.value;
        if (c == null) {
          c = new RowAccessCounts();
          counts.value = c;
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
