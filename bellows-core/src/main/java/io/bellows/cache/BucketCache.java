package io.bellows.cache;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The off-heap block cache (L2): block payloads copied into direct memory, carved by a
 * {@link BucketAllocator} into buckets of size classes. What the cache knows of each slot (key,
 * sizes, access stamp, area) is in primitive arrays ({@link BlockSlots}), found by key through an
 * open-addressing table of slot ids ({@link SlotIndex}) and by file through {@link FileSlots}: no
 * heap object per cached block but its KV-cache counts, made only for blocks a get counted. For data
 * blocks only (index and Bloom blocks belong on the heap). A hit copies the payload back to the heap,
 * or reads it in place.
 *
 * <p>Gets take no lock and never wait: a lookup of the slot id, then a read of the slot's bytes,
 * checked afterwards against the slot's version (a sequence lock per slot, see {@link BlockSlots}:
 * the version moves before the slot can be reused, and a reader that saw any byte of a reuse sees it
 * moved). A reader that finds it moved treats the block as a miss. Puts, evictions and frees run
 * under one lock ({@link #lock}); they happen on cache misses and L1 evictions, which already paid for
 * a file read or a heap eviction. A put never waits for that lock: when another thread holds it, the
 * block is not cached ({@code cache.l2.puts.skipped}). When a put finds no slot, blocks are evicted
 * until 5% of the capacity is free and the block's class has a slot.
 *
 * <p>Eviction, as L1's ({@link LruBlockCache}): a block comes in read once (single-access) and is
 * read again from here (multi-access); each kind has a share of the capacity, a third and two thirds
 * (HBase's ratio between them), and a victim is the least recently accessed block of the kind further
 * over its share, so one pass over cold blocks cannot push out the blocks read again and again. The
 * victims come from one scan of the slots, oldest first, each area walking it with its own cursor
 * and skipping blocks read since; the slots are scanned and sorted again only when an area's walk
 * reaches the scan's end, not on every eviction run (a scan on each run was an eighth of the read
 * suite's CPU with L2 alone).
 *
 * <p>Why no lock per bucket: a bucket's lock, taken by every put and free, made the readers of every
 * other slot of that bucket retry under its read lock, and with more threads than cores a holder
 * preempted mid-copy kept them waiting a scheduler slice (368 waits of 4.5 ms on average in one
 * read-suite run, docs/bench/log/2026-11-29-l2-lock-free-reads.md). Only a slot's own free can spoil its read.
 *
 * <p>Invariants: a slot id is in the index iff its slot is allocated and live (odd version); its
 * bytes and record are written before it is published; its version moves to even before the slot
 * returns to the allocator, and a reader returns nothing it read from a slot whose version moved by
 * the time it finished; {@link #usedSlotBytes()} returns to 0 once every block is evicted.
 */
public final class BucketCache implements BlockCache {
  /** A put that finds no slot frees at least this share of the capacity. */
  static final double FREE_FACTOR = 0.05;
  /** The single-access blocks' share of the capacity; the multi-access ones have the rest. */
  static final double SINGLE_SHARE = 1.0 / 3;

  private static final int SINGLE = BlockSlots.SINGLE;
  private static final int MULTI = BlockSlots.MULTI;

  private final long capacity;
  private final BucketAllocator allocator;
  private final ReentrantLock lock = new ReentrantLock();
  private final BlockSlots slots;
  private final SlotIndex index = new SlotIndex();
  private final FileSlots files = new FileSlots();
  private final AtomicLong accessClock = new AtomicLong();
  private final AtomicLong blockBytes = new AtomicLong();
  /** Slot bytes of the single- and multi-access blocks. */
  private final AtomicLong[] areaBytes = {new AtomicLong(), new AtomicLong()};
  /**
   * The last scan's slot ids, their stamps then and their order, oldest first (null before the
   * first); each area walks it with its own cursor. Under {@link #lock}. Arrays of ids rather than a
   * queue of candidate objects: a scan covers every cached block, and 100K small objects that lived
   * until evictions used them up were copied by young collections
   * (docs/bench/log/2026-11-29-young-pause-survivors.md).
   */
  private int[] scanIds;
  private long[] scanStamps;
  private int[] scanOrder;
  /** Where each area's walk of the last scan has got to; under {@link #lock}. */
  private final int[] scanCursor = new int[2];
  private long scans;
  /** Puts declined because another thread held the lock. */
  private final LongAdder putsSkipped = new LongAdder();
  private final CacheStats stats = new CacheStats("l2");
  private volatile boolean closed;

  /** @param capacity bytes of direct memory; at least one bucket ({@link BucketAllocator#BUCKET_SIZE}) */
  public BucketCache(long capacity) {
    this.allocator = new BucketAllocator(capacity);
    this.capacity = (long) allocator.bucketCount() * BucketAllocator.BUCKET_SIZE;
    this.slots = new BlockSlots(allocator.bucketCount());
  }

  @Override
  public CachedBlock get(BlockKey key, BlockKind kind) {
    int id = index.find(key.file(), key.offset(), slots);
    long word = id < 0 ? 0 : slots.word(id);
    byte[] payload = null;
    int onDiskSize = 0;
    if (BlockSlots.live(word) && slots.holds(id, key.file(), key.offset())) {
      onDiskSize = slots.onDiskSize(id);
      payload = read(id, word);
    }
    if (payload == null) {
      stats.miss(kind);
      return null;
    }
    slots.stamp(id, accessClock.incrementAndGet());
    promote(id, word);
    stats.hit(kind);
    return new CachedBlock(BlockSlots.kind(word), onDiskSize, payload, slots, id, BlockSlots.version(word));
  }

  /**
   * Runs {@code reader} over the block's bytes in the bucket, without copying them or taking a lock;
   * its result is discarded (a miss) if the slot was freed meanwhile. The block it returns has no
   * heap payload, only its slot, whose counts it shares ({@link CachedBlock#withoutPayload}).
   */
  @Override
  public <T> InPlaceRead<T> readInPlace(BlockKey key, BlockKind kind, PayloadReader<T> reader) {
    int id = index.find(key.file(), key.offset(), slots);
    long word = id < 0 ? 0 : slots.word(id);
    T value = null;
    int onDiskSize = 0;
    if (BlockSlots.live(word) && slots.holds(id, key.file(), key.offset())) {
      onDiskSize = slots.onDiskSize(id);
      value = readInPlace(id, word, reader);
    }
    if (value == null) {
      stats.miss(kind);
      return null;
    }
    slots.stamp(id, accessClock.incrementAndGet());
    promote(id, word);
    stats.hit(kind);
    return new InPlaceRead<>(value,
        CachedBlock.withoutPayload(BlockSlots.kind(word), onDiskSize, slots, id, BlockSlots.version(word)));
  }

  /** A block read again moves from the single-access area to the multi-access one (once; no lock). */
  private void promote(int id, long word) {
    if (slots.promote(id, word)) {
      int bytes = BucketAllocator.CLASS_SIZES[BlockSlots.sizeClass(word)];
      areaBytes[SINGLE].addAndGet(-bytes);
      areaBytes[MULTI].addAndGet(bytes);
    }
  }

  /** Whether the slot still holds the block its word {@code seen} described, asked after reading it. */
  private boolean unchangedAfterRead(int id, long seen) {
    return BlockSlots.version(slots.wordAfterRead(id)) == BlockSlots.version(seen);
  }

  /** The reader's result over the slot's bytes, or null if the slot was freed meanwhile. */
  private <T> T readInPlace(int id, long word, PayloadReader<T> reader) {
    T value;
    try {
      int length = slots.length(id);
      value = reader.read(allocator.bucket(id).view(BucketAllocator.slot(id),
          BucketAllocator.CLASS_SIZES[BlockSlots.sizeClass(word)], length));
    } catch (RuntimeException raced) {
      // Torn bytes of a slot reused under us, or the bucket released by close(): a miss. An
      // exception the bytes themselves cause is the caller's.
      if (!unchangedAfterRead(id, word)) {
        return null;
      }
      throw raced;
    }
    return unchangedAfterRead(id, word) ? requireValue(value) : null;
  }

  private static <T> T requireValue(T value) {
    if (value == null) {
      throw new IllegalStateException("a payload reader returned null");
    }
    return value;
  }

  /** A copy of the slot's bytes, or null if it was freed meanwhile. */
  private byte[] read(int id, long word) {
    byte[] out;
    try {
      int length = slots.length(id);
      out = allocator.bucket(id).read(BucketAllocator.slot(id), BucketAllocator.CLASS_SIZES[BlockSlots.sizeClass(word)],
          length);
    } catch (RuntimeException raced) {
      if (!unchangedAfterRead(id, word)) {
        return null; // the slot was reused, or the bucket released by close(), under us
      }
      throw raced;
    }
    return unchangedAfterRead(id, word) ? out : null;
  }

  @Override
  public void put(BlockKey key, CachedBlock block, boolean inMemory) {
    if (!block.hasPayload()) {
      throw new IllegalArgumentException("a block read in place has no payload to cache");
    }
    int sizeClass = BucketAllocator.classFor(block.payload().length);
    if (sizeClass < 0 || index.find(key.file(), key.offset(), slots) >= 0) {
      return;
    }
    // A put comes from a get that missed (or L1's eviction, or a flush): it does not wait for
    // another thread's put or eviction run, which sorts every entry; the block is not cached.
    if (!lock.tryLock()) {
      putsSkipped.increment();
      return;
    }
    try {
      if (closed || index.find(key.file(), key.offset(), slots) >= 0) {
        return;
      }
      int id = allocator.allocate(sizeClass);
      if (id < 0) {
        freeSpace(sizeClass);
        id = allocator.allocate(sizeClass);
        if (id < 0) {
          return;
        }
      }
      int bucket = id / BucketAllocator.SLOTS_PER_BUCKET;
      slots.ensurePage(bucket);
      allocator.bucket(id).write(BucketAllocator.slot(id), block.payload()); // published below
      slots.publish(id, key.file(), key.offset(), block, sizeClass, accessClock.incrementAndGet());
      index.add(key.file(), key.offset(), id, slots);
      areaBytes[SINGLE].addAndGet(BucketAllocator.CLASS_SIZES[sizeClass]);
      files.added(key.file(), id);
      stats.held(block.kind(), block.payload().length);
      blockBytes.addAndGet(block.payload().length);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Evicts until 5% of the capacity is free and the class has a slot: each victim the least recently
   * accessed block of the area further over its share, from the last scan. Under the lock.
   */
  private void freeSpace(int sizeClass) {
    long wanted = (long) (capacity * FREE_FACTOR);
    long freed = 0;
    boolean rescanned = false;
    while (freed < wanted || !classHasRoom(sizeClass)) {
      int area = areaFurtherOver();
      int id = nextVictim(area);
      if (id < 0 && !rescanned) {
        rescan(); // the area's walk reached the scan's end: scan again
        rescanned = true;
        id = nextVictim(area);
      }
      if (id < 0) {
        id = nextVictim(1 - area); // the area holds no block the scan saw
      }
      if (id < 0) {
        return; // nothing left to evict
      }
      long word = removeLocked(id);
      if (word != 0) {
        freed += BucketAllocator.CLASS_SIZES[BlockSlots.sizeClass(word)];
        stats.evicted(BlockSlots.kind(word));
      }
    }
  }

  /** The area (SINGLE or MULTI) whose slot bytes exceed its share of the capacity by more. */
  private int areaFurtherOver() {
    double singleOver = areaBytes[SINGLE].get() - SINGLE_SHARE * capacity;
    double multiOver = areaBytes[MULTI].get() - (1 - SINGLE_SHARE) * capacity;
    return singleOver >= multiOver ? SINGLE : MULTI;
  }

  /**
   * The area's next block in the last scan that still qualifies: live, in the area, not read since
   * the scan (a new stamp; a block that moved to MULTI was read; a slot reused holds a newer stamp),
   * or -1 once the area's walk has passed the scan's end.
   */
  private int nextVictim(int area) {
    if (scanOrder == null) {
      return -1;
    }
    for (int k = scanCursor[area]; k < scanOrder.length; k++) {
      int i = scanOrder[k];
      int id = scanIds[i];
      long word = slots.word(id);
      if (BlockSlots.live(word) && BlockSlots.area(word) == area && slots.stamp(id) == scanStamps[i]) {
        scanCursor[area] = k + 1;
        return id;
      }
    }
    scanCursor[area] = scanOrder.length;
    return -1;
  }

  /**
   * Takes a new scan of every live slot, oldest first, and starts both areas' walks at its beginning.
   * A walk stays in least-recently-used order until it ends: a block not in the scan was stamped
   * later than all of it, stamps only grow, and a block read since is skipped. StampOrder's radix
   * sort, as L1's: a comparator sort of candidate objects here was 5% of a get's CPU when reads missed.
   */
  private void rescan() {
    int n = 0;
    int[] ids = new int[index.size() + 16];
    long[] stamps = new long[ids.length];
    for (int id = 0; id < slots.idBound(); id++) {
      if (!slots.hasPage(id)) {
        id += BucketAllocator.SLOTS_PER_BUCKET - 1; // the bucket never served: skip its ids
        continue;
      }
      if (BlockSlots.live(slots.word(id))) {
        if (n == ids.length) {
          ids = Arrays.copyOf(ids, n * 2);
          stamps = Arrays.copyOf(stamps, n * 2);
        }
        ids[n] = id;
        stamps[n] = slots.stamp(id);
        n++;
      }
    }
    scanIds = ids;
    scanStamps = stamps;
    scanOrder = StampOrder.ascending(stamps, n);
    scanCursor[SINGLE] = 0;
    scanCursor[MULTI] = 0;
    scans++;
  }

  private boolean classHasRoom(int sizeClass) {
    if (allocator.freeBucketCount() > 0) {
      return true;
    }
    int id = allocator.allocate(sizeClass);
    if (id < 0) {
      return false;
    }
    allocator.free(id); // only probing
    return true;
  }

  /**
   * Unmaps the slot's block and frees the slot; under {@link #lock}. Returns the word the slot had,
   * or 0 if it held no live block (removed already).
   */
  private long removeLocked(int id) {
    long file = slots.file(id);
    long offset = slots.offset(id);
    int length = slots.length(id);
    long word = slots.free(id); // readers of the slot now miss; its bytes may be written again below
    if (word == 0) {
      return 0;
    }
    index.remove(file, offset, id);
    files.removed(file, other -> BlockSlots.live(slots.word(other)) && slots.file(other) == file);
    stats.held(BlockSlots.kind(word), -length);
    areaBytes[BlockSlots.area(word)].addAndGet(-BucketAllocator.CLASS_SIZES[BlockSlots.sizeClass(word)]);
    allocator.free(id);
    blockBytes.addAndGet(-length);
    return word;
  }

  @Override
  public void evictFile(long file) {
    lock.lock();
    try {
      for (int id : files.takeFile(file)) {
        if (BlockSlots.live(slots.word(id)) && slots.file(id) == file) {
          removeLocked(id);
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** Evicts every block (for tests of the accounting). */
  public void evictAll() {
    lock.lock();
    try {
      for (int id = 0; id < slots.idBound(); id++) {
        if (slots.hasPage(id) && BlockSlots.live(slots.word(id))) {
          removeLocked(id);
        }
      }
    } finally {
      lock.unlock();
    }
  }

  public boolean contains(BlockKey key) {
    return index.find(key.file(), key.offset(), slots) >= 0;
  }

  public int blockCount() {
    lock.lock();
    try {
      return index.size();
    } finally {
      lock.unlock();
    }
  }

  /** Payload bytes of the cached blocks. */
  public long blockBytes() {
    return blockBytes.get();
  }

  /** Bytes of the slots in use (each block takes a whole slot of its class). */
  public long usedSlotBytes() {
    lock.lock();
    try {
      return allocator.usedSlotBytes();
    } finally {
      lock.unlock();
    }
  }

  /** Buckets serving no class. */
  public int freeBucketCount() {
    lock.lock();
    try {
      return allocator.freeBucketCount();
    } finally {
      lock.unlock();
    }
  }

  public int bucketCount() {
    return allocator.bucketCount();
  }

  public long capacity() {
    return capacity;
  }

  @Override
  public Map<String, Number> metrics() {
    Map<String, Number> m = new TreeMap<>();
    stats.addTo(m);
    lock.lock();
    try {
      m.put("cache.l2.bytes", blockBytes.get());
      m.put("cache.l2.slot.bytes", allocator.usedSlotBytes());
      m.put("cache.l2.direct.bytes", allocator.allocatedBytes());
      m.put("cache.l2.buckets.free", allocator.freeBucketCount());
    } finally {
      lock.unlock();
    }
    m.put("cache.l2.max.bytes", capacity);
    m.put("cache.l2.puts.skipped", putsSkipped.sum());
    m.put("cache.l2.blocks", blockCount());
    return m;
  }

  /** Scans of the map taken for eviction (for tests). */
  long scans() {
    lock.lock();
    try {
      return scans;
    } finally {
      lock.unlock();
    }
  }

  /** Files the per-file key index still tracks (for tests: 0 once every file was evicted). */
  int indexedFileCount() {
    return files.fileCount();
  }

  CacheStats stats() {
    return stats;
  }

  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      evictAll();
      allocator.releaseMemory();
    } finally {
      lock.unlock();
    }
  }
}
