package io.bellows.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A verified, decompressed block as a cache holds it: its kind, the bytes it occupies in the file
 * and its payload. The payload is never modified after construction, so one instance is shared by
 * every reader that finds it.
 *
 * <p>Beside the bytes, an instance carries the KV cache's bookkeeping (the SAC 2024 paper §4.1):
 * per-row access counts, created on the first get that counts a read of the block, and the
 * eviction-candidate mark a block gets when one of its rows was promoted. The counts belong to the
 * cached block, not to one heap copy of it: a copy L2 serves names its slot, and its counts are the
 * slot's ({@link BlockSlots#countsFor}), created there on first use and shared by every copy of
 * that block (as by the copy L1 keeps), so rows of blocks served by L2 are promoted as rows of L1's
 * are. A block L1 lets go down to L2 takes its counts with it. The mark belongs to this copy only
 * (it is L1's eviction order). A block read again from the file starts afresh.
 *
 * <p>Nothing is allocated for the counts of a block no get counts (a block read only by gets that
 * found nothing in it, or only by scans): with a cache turned over every few seconds, a small
 * object per cached block lived long enough for each young collection to copy it.
 */
public final class CachedBlock {
  /** Fixed heap cost of a cached entry beside the payload: the block, key, map node and array headers. */
  static final long OVERHEAD = 128;

  private static final VarHandle COUNTS;

  static {
    try {
      COUNTS = MethodHandles.lookup().findVarHandle(CachedBlock.class, "counts", RowAccessCounts.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final BlockKind kind;
  private final int onDiskSize;
  private final byte[] payload;
  /**
   * The L2 slot this copy was served from or was put in, whose counts it shares; null for a block of
   * its own. {@link #slot} (id, high 32 bits, and version) is written before it.
   */
  private volatile BlockSlots slots;
  private volatile long slot;
  /** The block's counts once asked for (or the slot's); null before. */
  private volatile RowAccessCounts counts;
  private volatile boolean evictionCandidate;

  public CachedBlock(BlockKind kind, int onDiskSize, byte[] payload) {
    this(kind, onDiskSize, requirePayload(payload), null, 0, 0);
  }

  /**
   * A copy of the block in L2's slot {@code slotId} at {@code slotVersion}, which shares the slot's
   * counts; a null payload only for {@link #withoutPayload}.
   */
  CachedBlock(BlockKind kind, int onDiskSize, byte[] payload, BlockSlots slots, int slotId, int slotVersion) {
    if (kind == null) {
      throw new NullPointerException("kind is required");
    }
    this.kind = kind;
    this.onDiskSize = onDiskSize;
    this.payload = payload;
    this.slot = slotOf(slotId, slotVersion);
    this.slots = slots;
  }

  private static byte[] requirePayload(byte[] payload) {
    if (payload == null) {
      throw new NullPointerException("payload is required");
    }
    return payload;
  }

  /**
   * A block L2 holds in slot {@code slotId}, as a get that read it where it lies sees it: its kind,
   * size and the slot's counts, no heap payload. Never put in a cache.
   */
  static CachedBlock withoutPayload(BlockKind kind, int onDiskSize, BlockSlots slots, int slotId, int slotVersion) {
    return new CachedBlock(kind, onDiskSize, null, slots, slotId, slotVersion);
  }

  private static long slotOf(int id, int version) {
    return (long) id << 32 | (version & 0xFFFF_FFFFL);
  }

  /** The block's counts if a get made them, for L2 to keep beside its slot; else null. */
  RowAccessCounts countsIfMade() {
    return counts;
  }

  /**
   * L2 published this block (a block of its own) in slot {@code id} at {@code version}: counts made
   * from now on are the slot's, shared with the copies L2 serves. The get that read the block from
   * its file counts its read after putting it. A count made between L2's publish and this call stays
   * this block's; the heuristic loses one read.
   */
  void adoptSlot(BlockSlots s, int id, int version) {
    if (slots == null) {
      slot = slotOf(id, version);
      slots = s;
    }
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

  /**
   * The block's per-row access counts, created on first use: the slot's for a copy L2 served while
   * the slot still holds the block, else this copy's own. Two threads may race to create them; one
   * set wins.
   */
  public RowAccessCounts accessCounts() {
    RowAccessCounts c = counts;
    if (c != null) {
      return c;
    }
    BlockSlots s = slots;
    if (s != null) {
      long at = slot;
      c = s.countsFor((int) (at >>> 32), (int) at);
    }
    if (c == null) {
      c = new RowAccessCounts(); // a block of its own, or its slot was freed since it was served
    }
    RowAccessCounts witness = (RowAccessCounts) COUNTS.compareAndExchange(this, null, c);
    return witness == null ? c : witness;
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
