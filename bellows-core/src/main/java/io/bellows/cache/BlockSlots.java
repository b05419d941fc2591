package io.bellows.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What the off-heap cache knows of each slot, in primitive arrays rather than an object per block:
 * the block's key (file, offset), its lengths, its last access stamp and a state word, plus a
 * reference to its KV-cache counts once a get made them ({@link #countsFor}). A slot is named by an id ({@link BucketAllocator#id}); the
 * records of one bucket's slots sit in one page, made when the bucket first serves a class and kept.
 *
 * <p>Why: a cache of small dynamic blocks holds about 100K of them per 480 MiB, and under a workload
 * that turns the cache over every few seconds the five or six small objects each block had (map
 * node, entry, key, slot, the per-file index's node) lived long enough for every young collection to
 * copy them (docs/bench/log/2026-11-30-l2-slot-records.md).
 *
 * <p>The state word packs the slot's version (low 32 bits), its area ({@link #SINGLE}, {@link
 * #MULTI}, {@link #REMOVED}; 8 bits) and its block's kind and size class (8 bits each). The version is
 * odd while a published block lives in the slot and even while the slot is free, so it works as a
 * sequence lock: a reader reads the word, the key and the bytes, then the version again, and trusts
 * what it read only if the version did not move. Writers (under the cache's lock) write the key and
 * bytes of a free slot before the release store that makes the version odd, and make it even again
 * (with a store-store fence) before the slot can be written again.
 */
final class BlockSlots {
  /** Area of a block read once since it came in. */
  static final int SINGLE = 0;
  /** Area of a block read again. */
  static final int MULTI = 1;
  /** Not an area: the slot's block was removed. */
  static final int REMOVED = 2;

  private static final int FILE = 0;
  private static final int OFFSET = 1;
  private static final int STAMP = 2;
  /** The payload's length (high 32 bits) and the block's bytes in its file (low 32 bits). */
  private static final int SIZES = 3;
  private static final int WORD = 4;
  private static final int STRIDE = 5;

  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final VarHandle REFS = MethodHandles.arrayElementVarHandle(RowAccessCounts[].class);

  private static final BlockKind[] KINDS = BlockKind.values();

  /** One page per bucket, null until the bucket first serves a class. */
  private final long[][] records;
  /** Each slot's KV-cache counts, null until a get counts a read of its block; released and acquired. */
  private final RowAccessCounts[][] counts;

  BlockSlots(int bucketCount) {
    records = new long[bucketCount][];
    counts = new RowAccessCounts[bucketCount][];
  }

  /** Makes the bucket's page if it has none; under the cache's lock, before any slot of it is published. */
  void ensurePage(int bucket) {
    if (records[bucket] == null) {
      records[bucket] = new long[BucketAllocator.SLOTS_PER_BUCKET * STRIDE];
      counts[bucket] = new RowAccessCounts[BucketAllocator.SLOTS_PER_BUCKET];
    }
  }

  private long[] page(int id) {
    return records[id / BucketAllocator.SLOTS_PER_BUCKET];
  }

  private static int base(int id) {
    return (id % BucketAllocator.SLOTS_PER_BUCKET) * STRIDE;
  }

  /** The slot's state word, read with acquire semantics (0 for a slot whose bucket never served). */
  long word(int id) {
    long[] p = page(id);
    return p == null ? 0 : (long) LONGS.getAcquire(p, base(id) + WORD);
  }

  /** The state word again, after a read of the slot: the fence keeps the read's loads before it. */
  long wordAfterRead(int id) {
    VarHandle.acquireFence();
    return word(id);
  }

  static boolean live(long word) {
    return (word & 1) == 1;
  }

  static int version(long word) {
    return (int) word;
  }

  static int area(long word) {
    return (int) (word >>> 32) & 0xFF;
  }

  static BlockKind kind(long word) {
    return KINDS[(int) (word >>> 40) & 0xFF];
  }

  static int sizeClass(long word) {
    return (int) (word >>> 48) & 0xFF;
  }

  private static long word(int version, int area, BlockKind kind, int sizeClass) {
    return (version & 0xFFFF_FFFFL) | (long) area << 32 | (long) kind.ordinal() << 40 | (long) sizeClass << 48;
  }

  /** Whether the slot's record names this block (racy: the caller checks the version afterwards). */
  boolean holds(int id, long file, long offset) {
    long[] p = page(id);
    int b = base(id);
    return p[b + FILE] == file && p[b + OFFSET] == offset;
  }

  long file(int id) {
    return page(id)[base(id) + FILE];
  }

  long offset(int id) {
    return page(id)[base(id) + OFFSET];
  }

  int length(int id) {
    return (int) (page(id)[base(id) + SIZES] >>> 32);
  }

  int onDiskSize(int id) {
    return (int) page(id)[base(id) + SIZES];
  }

  long stamp(int id) {
    return (long) LONGS.getOpaque(page(id), base(id) + STAMP);
  }

  /** Stamps a read; a stale stamp left on a slot reused meanwhile only makes its new block look read now. */
  void stamp(int id, long stamp) {
    LONGS.setOpaque(page(id), base(id) + STAMP, stamp);
  }

  /**
   * The counts of the block in the slot at {@code version}, made on first use; null if the slot no
   * longer holds that block (freed, or reused), for the caller to count into counts of its own.
   * Lock-free. The counts reference is stored with release after the version moves on a free and
   * before it moves on a publish, so counts read with acquire and a version still {@code version}
   * after it are that block's. A slot freed and reused between the check and the exchange may get
   * the fresh, empty counts made here: empty counts are what it would make itself.
   */
  RowAccessCounts countsFor(int id, int version) {
    if (version(word(id)) != version) {
      return null;
    }
    RowAccessCounts[] page = counts[id / BucketAllocator.SLOTS_PER_BUCKET];
    int i = id % BucketAllocator.SLOTS_PER_BUCKET;
    RowAccessCounts c = (RowAccessCounts) REFS.getAcquire(page, i);
    if (c == null) {
      RowAccessCounts fresh = new RowAccessCounts();
      RowAccessCounts witness = (RowAccessCounts) REFS.compareAndExchange(page, i, null, fresh);
      c = witness == null ? fresh : witness;
    }
    return version(word(id)) == version ? c : null;
  }

  /**
   * Publishes a block in a free slot whose bytes were written: its record first, then the word with
   * an odd version (release), so a reader that sees the version sees the record and the bytes.
   */
  void publish(int id, long file, long offset, CachedBlock block, int sizeClass, long stamp) {
    long[] p = page(id);
    int b = base(id);
    int version = version((long) LONGS.getVolatile(p, b + WORD));
    if ((version & 1) != 0) {
      throw new IllegalStateException("slot " + id + " is not free");
    }
    p[b + FILE] = file;
    p[b + OFFSET] = offset;
    p[b + SIZES] = (long) block.payload().length << 32 | (block.onDiskSize() & 0xFFFF_FFFFL);
    LONGS.setOpaque(p, b + STAMP, stamp);
    REFS.setRelease(counts[id / BucketAllocator.SLOTS_PER_BUCKET], id % BucketAllocator.SLOTS_PER_BUCKET,
        block.countsIfMade());
    LONGS.setRelease(p, b + WORD, word(version + 1, SINGLE, block.kind(), sizeClass));
    block.adoptSlot(this, id, version + 1);
  }

  /**
   * Moves a live block from the single-access area to the multi-access one, if the word is still
   * {@code seen} (same block, still single); true if this call moved it.
   */
  boolean promote(int id, long seen) {
    if (area(seen) != SINGLE) {
      return false;
    }
    long moved = (seen & ~(0xFFL << 32)) | (long) MULTI << 32;
    return LONGS.compareAndSet(page(id), base(id) + WORD, seen, moved);
  }

  /**
   * Marks the slot free (an even version, area {@link #REMOVED}) and returns the word it had, or 0 if
   * it held no live block. Under the cache's lock; readers may promote concurrently, hence the loop.
   * The fence orders the mark before any later write of the slot's bytes.
   */
  long free(int id) {
    long[] p = page(id);
    int b = base(id);
    while (true) {
      long w = (long) LONGS.getVolatile(p, b + WORD);
      if (!live(w)) {
        return 0;
      }
      long freed = word(version(w) + 1, REMOVED, kind(w), sizeClass(w));
      if (LONGS.compareAndSet(p, b + WORD, w, freed)) {
        VarHandle.storeStoreFence();
        REFS.setRelease(counts[id / BucketAllocator.SLOTS_PER_BUCKET], id % BucketAllocator.SLOTS_PER_BUCKET, null);
        return w;
      }
    }
  }

  /** Pages made so far times slots per page: every id below this bound is in a page or in none. */
  int idBound() {
    return records.length * BucketAllocator.SLOTS_PER_BUCKET;
  }

  /** Whether the bucket of this id has a page (ids of other buckets never held a block). */
  boolean hasPage(int id) {
    return page(id) != null;
  }
}
