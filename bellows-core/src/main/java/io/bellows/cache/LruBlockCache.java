package io.bellows.cache;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The on-heap block cache (L1): blocks held as objects, bounded by their heap size, in three areas
 * ({@link CacheArea}) with least-recently-used eviction within an area.
 *
 * <p>Lookups take no lock: a {@link ConcurrentHashMap} get and a stamp from a global access
 * counter. When a put takes the cache over its size, the putting thread evicts (one thread at a
 * time; others go on) down to {@link #MIN_FACTOR} of the size, so a run frees at least 5% and runs
 * are rare: it takes from each area what it holds over its share, oldest access first. A scan of the
 * map queues each area's oldest blocks, which serve the runs that follow until they are used up. The
 * cache may exceed its size by the blocks put while an eviction run is under way.
 *
 * <p>Evicted data blocks are offered to the victim cache (L2), if there is one.
 *
 * <p>Invariants: {@link #size()} is the sum of the areas' bytes, which is the sum of the heap sizes
 * of the blocks in the map (each entry's bytes are added before it is published and taken off once
 * by whoever removes it); an entry's area changes only under its monitor, and never after removal
 * (a hit reads the area without the monitor and takes it only to promote).
 */
public final class LruBlockCache implements BlockCache {
  /** An eviction run frees down to this share of the size. */
  static final double MIN_FACTOR = 0.95;

  /** Where evicted data blocks go (the L2 cache), or nowhere. */
  public interface Victim {
    void evicted(BlockKey key, CachedBlock block);
  }

  /** Changes only when the KV cache borrows or returns memory ({@link #resize}). */
  private volatile long maxSize;
  private final Victim victim;
  private final ConcurrentHashMap<BlockKey, Entry> map = new ConcurrentHashMap<>();
  private final FileBlockIndex files = new FileBlockIndex();
  private final AtomicLong size = new AtomicLong();
  private final AtomicLong[] areaBytes = new AtomicLong[CacheArea.values().length];
  private final AtomicLong accessClock = new AtomicLong();
  private final ReentrantLock evictionLock = new ReentrantLock();
  private final CacheStats stats = new CacheStats("l1");
  /** The next victims of each area and the marked blocks, oldest first (guarded by evictionLock). */
  private final ArrayDeque<Candidate>[] areaQueues = newQueues();
  private final ArrayDeque<Candidate> markedQueue = new ArrayDeque<>();
  private long scans; // guarded by evictionLock

  /** @param maxSize the heap bytes the cache may hold */
  public LruBlockCache(long maxSize, Victim victim) {
    if (maxSize <= 0) {
      throw new IllegalArgumentException("cache size must be positive: " + maxSize);
    }
    this.maxSize = maxSize;
    this.victim = victim;
    for (int i = 0; i < areaBytes.length; i++) {
      areaBytes[i] = new AtomicLong();
    }
  }

  public LruBlockCache(long maxSize) {
    this(maxSize, null);
  }

  private static final class Entry {
    final BlockKey key;
    final BlockKind kind;
    /**
     * Set to null when the entry is removed: a removed entry may wait in an eviction queue until
     * the next scan, and must not keep its payload from the collector meanwhile (a compaction's
     * evicted files would otherwise stay on the heap beside the blocks that replace them).
     */
    volatile CachedBlock block;
    final long bytes;
    volatile long lastAccess;
    /** Written under this entry's monitor; read without it on the hit path (hot blocks are hit by many threads). */
    private volatile CacheArea area;
    private boolean removed; // guarded by this

    Entry(BlockKey key, CachedBlock block, CacheArea area, long stamp) {
      this.key = key;
      this.kind = block.kind();
      this.block = block;
      this.bytes = block.heapSize();
      this.area = area;
      this.lastAccess = stamp;
    }

    CacheArea area() {
      return area;
    }

    synchronized boolean removed() {
      return removed;
    }
  }

  @Override
  public CachedBlock get(BlockKey key, BlockKind kind) {
    Entry e = map.get(key);
    if (e == null) {
      stats.miss(kind);
      return null;
    }
    CachedBlock b = e.block;
    if (b == null) { // removed as we looked it up
      stats.miss(kind);
      return null;
    }
    e.lastAccess = accessClock.incrementAndGet();
    b.clearEvictionCandidate();
    promote(e);
    stats.hit(kind);
    return b;
  }

  /** A block read again moves from the single-access area to the multi-access one. */
  private void promote(Entry e) {
    if (e.area() != CacheArea.SINGLE) {
      return;
    }
    synchronized (e) {
      if (!e.removed && e.area == CacheArea.SINGLE) {
        e.area = CacheArea.MULTI;
        areaBytes[CacheArea.SINGLE.ordinal()].addAndGet(-e.bytes);
        areaBytes[CacheArea.MULTI.ordinal()].addAndGet(e.bytes);
      }
    }
  }

  @Override
  public void put(BlockKey key, CachedBlock block, boolean inMemory) {
    if (!block.hasPayload()) {
      throw new IllegalArgumentException("a block read in place has no payload to cache");
    }
    if (block.heapSize() > maxSize * CacheArea.SINGLE.share() || map.containsKey(key)) {
      return; // a block as large as an area would empty it; a present block stays as it is
    }
    CacheArea area = inMemory ? CacheArea.MEMORY : CacheArea.SINGLE;
    Entry e = new Entry(key, block, area, accessClock.incrementAndGet());
    // Count the bytes before publishing, so that whoever removes the entry finds them counted.
    areaBytes[area.ordinal()].addAndGet(e.bytes);
    size.addAndGet(e.bytes);
    if (map.putIfAbsent(key, e) != null) {
      areaBytes[area.ordinal()].addAndGet(-e.bytes);
      size.addAndGet(-e.bytes);
      return;
    }
    files.added(key);
    stats.held(block.kind(), e.bytes);
    while (size.get() > maxSize && evictionLock.tryLock()) {
      try {
        evict();
      } finally {
        evictionLock.unlock();
      }
    }
  }

  /**
   * Sets the size (the KV cache borrows from it and gives back, docs/design/kv-cache.md); a smaller
   * size evicts at once, on this thread, waiting for a run under way.
   */
  public void resize(long newMaxSize) {
    if (newMaxSize <= 0) {
      throw new IllegalArgumentException("cache size must be positive: " + newMaxSize);
    }
    maxSize = newMaxSize;
    if (size.get() > newMaxSize) {
      evictionLock.lock();
      try {
        evict();
      } finally {
        evictionLock.unlock();
      }
    }
  }

  /**
   * One eviction run, down to MIN_FACTOR of the size: first the blocks marked as eviction candidates
   * (a row of theirs went to the KV cache and nobody read them since), oldest first; then from each
   * area what it holds over its share, oldest access first. Runs after the first take their victims
   * from the queues the last scan of the map left ({@link #rescan}), so the map is scanned and sorted
   * once every few runs rather than on each.
   */
  private void evict() {
    long target = (long) (maxSize * MIN_FACTOR);
    long toFree = size.get() - target;
    if (toFree <= 0) {
      return;
    }
    boolean rescanned = false;
    if (queuesEmpty()) {
      rescan();
      rescanned = true;
    }
    toFree -= evictFrom(markedQueue, null, toFree);
    if (toFree <= 0) {
      return;
    }
    // The areas' overflows add up to at least toFree: their shares add up to the target.
    long[] overflow = new long[CacheArea.values().length];
    for (CacheArea a : CacheArea.values()) {
      overflow[a.ordinal()] = overflow(a, target);
    }
    List<CacheArea> order = new ArrayList<>(List.of(CacheArea.values()));
    order.sort(Comparator.comparingLong((CacheArea a) -> overflow[a.ordinal()]).reversed());
    for (CacheArea a : order) {
      long over = Math.min(overflow[a.ordinal()], toFree);
      if (over <= 0) {
        continue;
      }
      long freed = evictFrom(areaQueues[a.ordinal()], a, over);
      if (freed < over && !rescanned) {
        rescan(); // this area's queue ran dry: refill every queue from a fresh scan
        rescanned = true;
        freed += evictFrom(areaQueues[a.ordinal()], a, over - freed);
      }
      toFree -= freed;
      if (toFree <= 0) {
        return;
      }
    }
  }

  /**
   * Evicts from the head of a queue until {@code bytes} are freed or the queue is empty, skipping
   * victims that no longer qualify: removed, read since the scan (a new stamp, which also clears a
   * mark), or moved to another area. Returns the bytes freed.
   */
  private long evictFrom(ArrayDeque<Candidate> queue, CacheArea area, long bytes) {
    long freed = 0;
    while (freed < bytes && !queue.isEmpty()) {
      Candidate c = queue.pollFirst();
      Entry e = c.entry();
      CachedBlock b = e.block;
      boolean qualifies = b != null && e.lastAccess == c.stamp()
          && (area == null ? b.isEvictionCandidate() : e.area() == area);
      if (qualifies && evictOne(e)) {
        freed += e.bytes;
      }
    }
    return freed;
  }

  private boolean queuesEmpty() {
    for (ArrayDeque<Candidate> q : areaQueues) {
      if (!q.isEmpty()) {
        return false;
      }
    }
    return markedQueue.isEmpty();
  }

  /**
   * Scans the map and refills the queues with every block, oldest first: the marked ones in one queue,
   * the others in their area's. A queue stays a true least-recently-used order until it is used up:
   * every block not in it was stamped later than all of it, stamps only grow, and a queued block read
   * since is skipped. So a scan serves eviction runs until one area's queue runs dry, which takes
   * about as many evictions as the cache holds blocks. Blocks marked after the scan wait for the next
   * one.
   */
  private void rescan() {
    StampOrder.Snapshot<Entry> oldestFirst = StampOrder.snapshot(map.values(), e -> e.lastAccess);
    markedQueue.clear();
    for (ArrayDeque<Candidate> q : areaQueues) {
      q.clear();
    }
    for (int k = 0; k < oldestFirst.size(); k++) {
      Entry e = oldestFirst.entry(k);
      CachedBlock b = e.block;
      if (b == null) {
        continue; // removed since the scan
      }
      ArrayDeque<Candidate> queue = b.isEvictionCandidate() ? markedQueue : areaQueues[e.area().ordinal()];
      queue.addLast(new Candidate(e, oldestFirst.stamp(k)));
    }
    scans++;
  }

  /** Removes an entry as an eviction (counted, handed to the victim cache); true if this call removed it. */
  private boolean evictOne(Entry e) {
    CachedBlock b = e.block;
    if (b == null || !remove(e)) {
      return false;
    }
    stats.evicted(e.kind);
    if (victim != null && e.kind == BlockKind.DATA) {
      victim.evicted(e.key, b);
    }
    return true;
  }

  @SuppressWarnings("unchecked")
  private static ArrayDeque<Candidate>[] newQueues() {
    ArrayDeque<Candidate>[] queues = new ArrayDeque[CacheArea.values().length];
    for (int i = 0; i < queues.length; i++) {
      queues[i] = new ArrayDeque<>();
    }
    return queues;
  }

  /** Scans of the whole map made by eviction runs so far (for tests). */
  long evictionScans() {
    evictionLock.lock();
    try {
      return scans;
    } finally {
      evictionLock.unlock();
    }
  }

  /** Blocks that entries removed from the map but still queued as victims hold (for tests: always 0). */
  long blocksHeldByRemovedQueuedEntries() {
    evictionLock.lock();
    try {
      long n = markedQueue.stream().filter(c -> c.entry().removed() && c.entry().block != null).count();
      for (ArrayDeque<Candidate> q : areaQueues) {
        n += q.stream().filter(c -> c.entry().removed() && c.entry().block != null).count();
      }
      return n;
    } finally {
      evictionLock.unlock();
    }
  }

  /** An entry with its access stamp as read once, for sorting. */
  private record Candidate(Entry entry, long stamp) {}

  private long overflow(CacheArea a, long target) {
    return areaBytes[a.ordinal()].get() - (long) (target * a.share());
  }

  /** Removes the entry if it is still mapped; true if this call removed it. */
  private boolean remove(Entry e) {
    if (!map.remove(e.key, e)) {
      return false;
    }
    files.removed(e.key);
    if (map.containsKey(e.key)) {
      // A reader put the key again between the map's removal and the index's, and its add to the
      // index may have come before our removal: put the key back, or evictFile would miss the block.
      files.added(e.key);
    }
    stats.held(e.kind, -e.bytes);
    synchronized (e) {
      e.removed = true;
      areaBytes[e.area.ordinal()].addAndGet(-e.bytes);
    }
    size.addAndGet(-e.bytes);
    e.block = null;
    return true;
  }

  /**
   * Drops the file's blocks. Under the eviction lock, so that no eviction run is between removing a
   * block of the file from the map and fixing the file index (see {@link #remove}) while the file's
   * keys are taken.
   */
  @Override
  public void evictFile(long file) {
    evictionLock.lock();
    try {
      for (BlockKey k : files.takeFile(file)) {
        Entry e = map.get(k);
        if (e != null) {
          remove(e);
        }
      }
    } finally {
      evictionLock.unlock();
    }
  }

  /**
   * Waits until no eviction run is under way. After {@link #evictFile} of a file nobody reads, this
   * guarantees that every block of it a run removed has also reached the victim, so the victim's
   * own {@code evictFile} that follows finds it.
   */
  public void awaitEvictionRun() {
    evictionLock.lock();
    evictionLock.unlock();
  }

  /** Heap bytes held (the blocks' heap sizes). */
  public long size() {
    return size.get();
  }

  public long maxSize() {
    return maxSize;
  }

  /** Heap bytes held in one area. */
  public long areaBytes(CacheArea a) {
    return areaBytes[a.ordinal()].get();
  }

  public int blockCount() {
    return map.size();
  }

  /** Whether the block is cached, without counting an access. */
  public boolean contains(BlockKey key) {
    return map.containsKey(key);
  }

  /** The area the block is in, or null (for tests). */
  CacheArea areaOf(BlockKey key) {
    Entry e = map.get(key);
    return e == null ? null : e.area();
  }

  /** Files the per-file key index still tracks (for tests: 0 once every file was evicted). */
  int indexedFileCount() {
    return files.fileCount();
  }

  /** Data-block hits so far (the KV cache weighs its memory against L1's by hits per byte). */
  public long dataHits() {
    return stats.hits(BlockKind.DATA);
  }

  CacheStats stats() {
    return stats;
  }

  @Override
  public Map<String, Number> metrics() {
    Map<String, Number> m = new java.util.TreeMap<>();
    stats.addTo(m);
    m.put("cache.l1.bytes", size());
    m.put("cache.l1.max.bytes", maxSize);
    m.put("cache.l1.blocks", blockCount());
    for (CacheArea a : CacheArea.values()) {
      m.put("cache.l1." + a.metricName() + ".bytes", areaBytes(a));
    }
    return m;
  }

  @Override
  public void close() {
    for (Entry e : map.values()) {
      remove(e);
    }
  }
}
