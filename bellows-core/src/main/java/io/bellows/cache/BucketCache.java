package io.bellows.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The off-heap block cache (L2): block payloads copied into direct memory, carved by a
 * {@link BucketAllocator} into buckets of size classes; the map from key to slot is on the heap.
 * For data blocks only (index and Bloom blocks belong on the heap). A hit copies the payload back
 * to the heap.
 *
 * <p>Gets take no lock and never wait: a map lookup, then a read of the slot's bytes, checked
 * afterwards against the entry's {@link Entry#freed} mark (a one-entry sequence lock: the mark is set
 * before the slot can be reused, and a reader that saw any byte of a reuse sees the mark). A reader
 * that finds the mark set treats the block as a miss. Puts, evictions and frees run under one lock
 * ({@link #lock}); they happen on cache misses and L1 evictions, which already paid for a file read
 * or a heap eviction. A put never waits for that lock: when another thread holds it, the block is not
 * cached ({@code cache.l2.puts.skipped}). When a put finds no slot, blocks are evicted until 5% of
 * the capacity is free and the block's class has a slot.
 *
 * <p>Eviction, as L1's ({@link LruBlockCache}): a block comes in read once (single-access) and is
 * read again from here (multi-access); each kind has a share of the capacity, a third and two thirds
 * (HBase's ratio between them), and a victim is the least recently accessed block of the kind further
 * over its share, so one pass over cold blocks cannot push out the blocks read again and again. The
 * victims come from one scan of the map, oldest first, each area walking it with its own cursor and
 * skipping blocks read since; the map is scanned and sorted again only when an area's walk reaches
 * the scan's end, not on every eviction run (a scan on each run was an eighth of the read suite's
 * CPU with L2 alone).
 *
 * <p>Why no lock per bucket: a bucket's lock, taken by every put and free, made the readers of every
 * other slot of that bucket retry under its read lock, and with more threads than cores a holder
 * preempted mid-copy kept them waiting a scheduler slice (368 waits of 4.5 ms on average in one
 * read-suite run, docs/bench/log/2026-11-29-l2-lock-free-reads.md). Only a slot's own free can spoil its read.
 *
 * <p>Invariants: a slot is in the map iff it is allocated and not freed; its bytes are written before
 * it is published; its entry is marked freed before the slot returns to the allocator, and a reader
 * returns nothing it read from a slot whose entry was marked by the time it finished;
 * {@link #usedSlotBytes()} returns to 0 once every block is evicted.
 */
public final class BucketCache implements BlockCache {
  /** A put that finds no slot frees at least this share of the capacity. */
  static final double FREE_FACTOR = 0.05;
  /** The single-access blocks' share of the capacity; the multi-access ones have the rest. */
  static final double SINGLE_SHARE = 1.0 / 3;

  /** An entry's {@link Entry#state}: read once since it came in. Also its area's index. */
  private static final int SINGLE = 0;
  /** Read again since it came in. */
  private static final int MULTI = 1;
  /** Unmapped (its slot is being or has been freed). */
  private static final int REMOVED = 2;

  private final long capacity;
  private final BucketAllocator allocator;
  private final ReentrantLock lock = new ReentrantLock();
  private final ConcurrentHashMap<BlockKey, Entry> map = new ConcurrentHashMap<>();
  private final FileBlockIndex files = new FileBlockIndex();
  private final AtomicLong accessClock = new AtomicLong();
  private final AtomicLong blockBytes = new AtomicLong();
  /** Slot bytes of the single- and multi-access blocks. */
  private final AtomicLong[] areaBytes = {new AtomicLong(), new AtomicLong()};
  /**
   * The last scan's blocks with their stamps then, oldest first (null before the first); each area
   * walks it with its own cursor. Under {@link #lock}. One snapshot of arrays rather than a queue of
   * candidate objects per area: a scan covers every cached block, and its 100K small objects lived
   * until evictions used them up, seconds, long enough for young collections to copy them
   * (docs/bench/log/2026-11-29-young-pause-survivors.md).
   */
  private StampOrder.Snapshot<Entry> lastScan;
  /** Where each area's walk of {@link #lastScan} has got to; under {@link #lock}. */
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
  }

  private static final class Entry {
    final BlockKey key;
    final BucketAllocator.Slot slot;
    final BlockKind kind;
    final int onDiskSize;
    final int length;
    /** The KV cache's per-row counts of the block, on the heap, shared by every copy served (see CachedBlock). */
    final CachedBlock.Counts counts;
    volatile long lastAccess;
    /** {@link #SINGLE}, {@link #MULTI} or {@link #REMOVED}: moves by compare-and-set ({@link #STATE}). */
    volatile int state = SINGLE;
    /** Set (under {@link #lock}) before the slot returns to the allocator; never cleared. */
    volatile boolean freed;

    Entry(BlockKey key, BucketAllocator.Slot slot, CachedBlock block, long stamp) {
      this.key = key;
      this.slot = slot;
      this.kind = block.kind();
      this.onDiskSize = block.onDiskSize();
      this.length = block.payload().length;
      this.counts = block.counts(); // an L1 victim's counts go on with it
      this.lastAccess = stamp;
    }

    /**
     * Whether the slot was freed, asked after reading its bytes: the fence keeps those reads before
     * this one, so a reader that read any byte of the slot's next block sees the mark.
     */
    boolean freedAfterRead() {
      VarHandle.acquireFence();
      return freed;
    }

    /** Marks the entry freed before its slot can be written again (see {@link #freedAfterRead}). */
    void markFreed() {
      freed = true;
      VarHandle.storeStoreFence();
    }
  }

  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(Entry.class, "state", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @Override
  public CachedBlock get(BlockKey key, BlockKind kind) {
    Entry e = map.get(key);
    byte[] payload = e == null ? null : read(e);
    if (payload == null) {
      stats.miss(kind);
      return null;
    }
    e.lastAccess = accessClock.incrementAndGet();
    promote(e);
    stats.hit(kind);
    return new CachedBlock(e.kind, e.onDiskSize, payload, e.counts);
  }

  /**
   * Runs {@code reader} over the block's bytes in the bucket, without copying them or taking a lock;
   * its result is discarded (a miss) if the slot was freed meanwhile. The block it returns has no
   * heap payload, only the block's counts ({@link CachedBlock#withoutPayload}).
   */
  @Override
  public <T> InPlaceRead<T> readInPlace(BlockKey key, BlockKind kind, PayloadReader<T> reader) {
    Entry e = map.get(key);
    T value = e == null ? null : readInPlace(e, reader);
    if (value == null) {
      stats.miss(kind);
      return null;
    }
    e.lastAccess = accessClock.incrementAndGet();
    promote(e);
    stats.hit(kind);
    return new InPlaceRead<>(value, CachedBlock.withoutPayload(e.kind, e.onDiskSize, e.counts));
  }

  /** A block read again moves from the single-access area to the multi-access one (once; no lock). */
  private void promote(Entry e) {
    if (e.state == SINGLE && STATE.compareAndSet(e, SINGLE, MULTI)) {
      int bytes = e.slot.itemSize();
      areaBytes[SINGLE].addAndGet(-bytes);
      areaBytes[MULTI].addAndGet(bytes);
    }
  }

  /** The reader's result over the entry's bytes, or null if the entry was freed meanwhile. */
  private static <T> T readInPlace(Entry e, PayloadReader<T> reader) {
    if (e.freed) {
      return null;
    }
    T value;
    try {
      value = reader.read(e.slot.bucket().view(e.slot.slot(), e.slot.itemSize(), e.length));
    } catch (RuntimeException raced) {
      // Torn bytes of a slot reused under us, or the bucket released by close(): a miss. An
      // exception the bytes themselves cause is the caller's.
      if (e.freedAfterRead()) {
        return null;
      }
      throw raced;
    }
    return e.freedAfterRead() ? null : requireValue(value);
  }

  private static <T> T requireValue(T value) {
    if (value == null) {
      throw new IllegalStateException("a payload reader returned null");
    }
    return value;
  }

  /** A copy of the entry's bytes, or null if it was freed meanwhile. */
  private static byte[] read(Entry e) {
    if (e.freed) {
      return null;
    }
    byte[] out;
    try {
      out = e.slot.bucket().read(e.slot.slot(), e.slot.itemSize(), e.length);
    } catch (RuntimeException raced) {
      if (e.freedAfterRead()) {
        return null; // the bucket was released by close() under us
      }
      throw raced;
    }
    return e.freedAfterRead() ? null : out;
  }

  @Override
  public void put(BlockKey key, CachedBlock block, boolean inMemory) {
    if (!block.hasPayload()) {
      throw new IllegalArgumentException("a block read in place has no payload to cache");
    }
    int sizeClass = BucketAllocator.classFor(block.payload().length);
    if (sizeClass < 0 || map.containsKey(key)) {
      return;
    }
    // A put comes from a get that missed (or L1's eviction, or a flush): it does not wait for
    // another thread's put or eviction run, which sorts every entry; the block is not cached.
    if (!lock.tryLock()) {
      putsSkipped.increment();
      return;
    }
    try {
      if (closed || map.containsKey(key)) {
        return;
      }
      BucketAllocator.Slot s = allocator.allocate(sizeClass);
      if (s == null) {
        freeSpace(sizeClass);
        s = allocator.allocate(sizeClass);
        if (s == null) {
          return;
        }
      }
      s.bucket().write(s.slot(), block.payload()); // published by the map's put below
      map.put(key, new Entry(key, s, block, accessClock.incrementAndGet()));
      areaBytes[SINGLE].addAndGet(s.itemSize());
      files.added(key);
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
      Entry e = nextVictim(area);
      if (e == null && !rescanned) {
        rescan(); // the area's walk reached the scan's end: scan again
        rescanned = true;
        e = nextVictim(area);
      }
      if (e == null) {
        e = nextVictim(1 - area); // the area holds no block the scan saw
      }
      if (e == null) {
        return; // nothing left to evict
      }
      if (removeLocked(e)) {
        freed += e.slot.itemSize();
        stats.evicted(e.kind);
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
   * The area's next block in the last scan that still qualifies: in the area, not removed, not read
   * since the scan (a new stamp; a block that moved to MULTI was read), not taken already, or null
   * once the area's walk has passed the scan's end. The scan forgets the block it returns.
   */
  private Entry nextVictim(int area) {
    StampOrder.Snapshot<Entry> scan = lastScan;
    if (scan == null) {
      return null;
    }
    for (int k = scanCursor[area]; k < scan.size(); k++) {
      Entry e = scan.entry(k);
      if (e != null && e.state == area && e.lastAccess == scan.stamp(k)) {
        scanCursor[area] = k + 1;
        scan.forget(k); // an evicted block's objects are not kept alive until the next scan
        return e;
      }
    }
    scanCursor[area] = scan.size();
    return null;
  }

  /**
   * Takes a new scan of every block, oldest first, and starts both areas' walks at its beginning. A
   * walk stays in least-recently-used order until it ends: a block not in the scan was stamped later
   * than all of it, stamps only grow, and a block read since is skipped. StampOrder's radix sort, as
   * L1's: a comparator sort of candidate objects here was 5% of a get's CPU when reads missed.
   */
  private void rescan() {
    lastScan = StampOrder.snapshot(map.values(), e -> e.lastAccess);
    scanCursor[SINGLE] = 0;
    scanCursor[MULTI] = 0;
    scans++;
  }

  private boolean classHasRoom(int sizeClass) {
    if (allocator.freeBucketCount() > 0) {
      return true;
    }
    BucketAllocator.Slot s = allocator.allocate(sizeClass);
    if (s == null) {
      return false;
    }
    allocator.free(s); // only probing
    return true;
  }

  /** Unmaps the entry and frees its slot; under {@link #lock}. True if this call removed it. */
  private boolean removeLocked(Entry e) {
    if (!map.remove(e.key, e)) {
      return false;
    }
    files.removed(e.key);
    stats.held(e.kind, -e.length);
    int area = (int) STATE.getAndSet(e, REMOVED);
    areaBytes[area].addAndGet(-e.slot.itemSize());
    e.markFreed();
    allocator.free(e.slot);
    blockBytes.addAndGet(-e.length);
    return true;
  }

  @Override
  public void evictFile(long file) {
    lock.lock();
    try {
      for (BlockKey k : files.takeFile(file)) {
        Entry e = map.get(k);
        if (e != null) {
          removeLocked(e);
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
      for (Entry e : map.values()) {
        removeLocked(e);
      }
    } finally {
      lock.unlock();
    }
  }

  public boolean contains(BlockKey key) {
    return map.containsKey(key);
  }

  public int blockCount() {
    return map.size();
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
    m.put("cache.l2.blocks", map.size());
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
