package io.bellows.kvcache;

import io.bellows.cache.CachedBlock;
import io.bellows.cache.LruBlockCache;
import io.bellows.cell.Cell;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.IntSupplier;

/**
 * The KV cache (the SAC 2024 paper's KVCache, docs/design/kv-cache.md): hot rows of sorted files,
 * promoted out of the on-heap block cache's data blocks by gets, looked up by (file, row) before the
 * block cache. An entry is a copy of immutable file content, so it is never stale; a get still merges
 * it with the memory store and the other files.
 *
 * <p>Memory: the KV cache and L1 share L1's budget. The KV cache has a size limit, which starts at
 * {@code initial} bytes and grows in steps up to {@code maxBytes} while the cache earns at least as
 * many hits per byte as L1 (and gives a step back when it earns less than half of L1's). It does not
 * hold its limit from the start: it reserves L1's memory a step at a time as rows fill it (L1 shrinks
 * and drops the blocks whose rows were promoted first), so that memory a cold KV cache does not use
 * keeps caching blocks. L1's size plus the reservation always add up to the budget.
 *
 * <p>Thread-safe. Lookups and counts take no engine lock; resizing takes a lock of its own, tried
 * (a thread that finds it taken carries on without resizing).
 */
public final class KvCache {
  /** Lookups between two reviews of the KV cache's size against L1's. */
  static final long REVIEW_EVERY = 1 << 16;
  /**
   * Heap cost of an entry beside its row key's and packed cells' bytes, with compressed references:
   * the key object (32), the two arrays' headers and padding (40), the map's node and slot (40), and
   * the policy's entry and heap record (64).
   */
  static final int ENTRY_OVERHEAD = 176;

  /**
   * The rows, each value a {@link PackedRow}; its capacity is the reservation: the bytes of L1's
   * budget the KV cache holds.
   */
  private final BoundedCache<RowKey, byte[]> rows;
  private final ConcurrentHashMap<Long, Set<RowKey>> byFile = new ConcurrentHashMap<>();
  private final LruBlockCache l1;
  private final long initialBytes;
  private final long maxBytes;
  /** The KV cache's size limit (guarded by resizing): the reservation never exceeds it. */
  private volatile long limit;
  private final long step;
  private final int minAccesses;
  private final ReentrantLock resizing = new ReentrantLock();

  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();
  private final AtomicLong promotions = new AtomicLong();
  private final AtomicLong grows = new AtomicLong();
  private final AtomicLong shrinks = new AtomicLong();
  // Window of the last review (guarded by resizing).
  private long reviewedAtLookups;
  private long hitsAtReview;
  private long l1HitsAtReview;
  private boolean earnsItsMemory = true;

  /**
   * @param storage builds the bounded map from the listener it must report evictions to
   * @param l1 the block cache level whose budget the KV cache shares, already sized without {@code
   *     reserved}; null for a KV cache of fixed size {@code initialBytes}
   * @param reserved the bytes of the budget left out of L1 for the KV cache at open ({@link
   *     #firstReservation}); ignored without an L1
   * @param initialBytes the KV cache's starting size limit
   * @param maxBytes its largest size limit
   * @param minAccesses the promotion threshold ({@code bellows.kvcache.promote.min.accesses})
   */
  public KvCache(Function<BoundedCache.EvictionListener<RowKey>, BoundedCache<RowKey, byte[]>> storage,
      LruBlockCache l1, long reserved, long initialBytes, long maxBytes, int minAccesses) {
    if (initialBytes <= 0 || maxBytes < initialBytes || (l1 != null && (reserved <= 0 || reserved > initialBytes))) {
      throw new IllegalArgumentException(
          "need 0 < reserved <= initial <= max: " + reserved + ", " + initialBytes + ", " + maxBytes);
    }
    this.rows = storage.apply(this::evicted);
    this.l1 = l1;
    this.initialBytes = initialBytes;
    this.maxBytes = maxBytes;
    this.limit = initialBytes;
    this.step = l1 == null ? initialBytes : step(l1.maxSize() + reserved);
    this.rows.capacity(l1 == null ? initialBytes : reserved);
    this.minAccesses = minAccesses;
  }

  /** The unit in which the KV cache reserves and returns memory: 1/64 of the budget, at least 1 MiB. */
  static long step(long budget) {
    return Math.max(1L << 20, budget / 64);
  }

  /**
   * What the KV cache reserves at open out of an L1 budget of {@code budget} bytes: one step, or its
   * initial limit if smaller. The engine sizes L1 with the rest before building the KV cache.
   */
  public static long firstReservation(long budget, long initialBytes) {
    return Math.min(initialBytes, step(budget));
  }

  /**
   * The cells file {@code file} holds for {@code row}, if cached (new cell objects over the cached
   * row's bytes); counts a hit or a miss.
   */
  public List<Cell> get(long file, byte[] row) {
    byte[] cells = rows.get(new RowKey(file, row));
    long lookups;
    if (cells == null) {
      lookups = misses.incrementAndGet() + hits.get();
    } else {
      lookups = hits.incrementAndGet() + misses.get();
    }
    if (lookups % REVIEW_EVERY == 0) {
      review(lookups);
    }
    return cells == null ? null : PackedRow.unpack(cells);
  }

  /**
   * Counts a get that read {@code row} from a cached data block (its cells, starting at
   * {@code rowStart} in the block) and promotes the row if it is now hot in a poorly used block
   * (paper §4.1): the row's cells are copied in, packed into one array ({@link PackedRow}), and
   * the block marked an eviction candidate.
   *
   * @param rowCount the number of rows in the block, asked for only when a count of the block
   *     first passes the promotion minimum
   */
  public void countRead(long file, byte[] row, List<Cell> cells, CachedBlock block, int rowStart,
      IntSupplier rowCount) {
    if (cells.isEmpty() || !block.accessCounts().recordAndTestPromotion(rowStart, minAccesses, rowCount)) {
      return;
    }
    byte[] packed = PackedRow.pack(cells);
    int bytes = ENTRY_OVERHEAD + row.length + packed.length;
    // Before the policy would evict to make room: with WEIGHTED that is 95% of the capacity, and a
    // test against the capacity itself never reserved more for rows of a few hundred bytes.
    if (rows.bytes() + bytes > rows.evictsAbove()) {
      reserveMore();
    }
    RowKey key = new RowKey(file, row);
    // Indexed before it is put, so that an eviction right after the put finds it to unindex it; and
    // again after, for an eviction of the key's previous entry reported in between (see evicted).
    Set<RowKey> keys = byFile.computeIfAbsent(file, f -> ConcurrentHashMap.newKeySet());
    keys.add(key);
    rows.put(key, packed, bytes);
    keys.add(key);
    promotions.incrementAndGet();
    block.markEvictionCandidate();
  }

  /** Drops every row of a file: it was deleted or its store closed (no reader of it is left). */
  public void evictFile(long file) {
    Set<RowKey> keys = byFile.remove(file);
    if (keys != null) {
      for (RowKey k : keys) {
        rows.remove(k);
      }
    }
  }

  /**
   * Unindexes an evicted row. The cache reports an eviction after it let go of its lock, so the row
   * may already have been promoted again: it is then put back in the index, or a dropped file would
   * leave it cached. (The other order, this report between a promotion's indexing and its put, is
   * covered by the promotion indexing again after its put.) At worst a key stays indexed with no
   * row, which dropping its file clears.
   */
  private void evicted(RowKey key) {
    Set<RowKey> keys = byFile.get(key.file);
    if (keys != null) {
      keys.remove(key);
      if (rows.contains(key)) {
        keys.add(key);
      }
    }
  }

  /**
   * Reserves a step more of L1's memory for a promotion that does not fit: within the limit, or past
   * it by raising the limit a step if the KV cache earns it. Gives up (the put then evicts rows) if
   * another thread is resizing.
   */
  private void reserveMore() {
    if (l1 == null || !resizing.tryLock()) {
      return;
    }
    try {
      long cap = rows.capacity();
      if (cap >= limit) {
        if (!earnsItsMemory || limit >= maxBytes) {
          return;
        }
        limit = Math.min(maxBytes, limit + step);
        grows.incrementAndGet();
      }
      long grant = Math.min(step, limit - cap);
      if (grant <= 0 || l1.maxSize() - grant <= 0) {
        return;
      }
      l1.resize(l1.maxSize() - grant); // L1 first: the sum never exceeds the budget
      rows.capacity(cap + grant);
    } finally {
      resizing.unlock();
    }
  }

  /**
   * Compares hits per byte of the KV cache and of L1 over the window since the last review: the KV
   * cache may grow only while it earns at least L1's rate, and gives a step back below half of it.
   */
  private void review(long lookups) {
    if (l1 == null || !resizing.tryLock()) {
      return;
    }
    try {
      if (lookups <= reviewedAtLookups) {
        return;
      }
      long h = hits.get();
      long l1h = l1.dataHits();
      double kvRate = (h - hitsAtReview) / (double) rows.capacity();
      double l1Rate = (l1h - l1HitsAtReview) / (double) l1.maxSize();
      reviewedAtLookups = lookups;
      hitsAtReview = h;
      l1HitsAtReview = l1h;
      earnsItsMemory = kvRate >= l1Rate;
      if (kvRate < l1Rate / 2 && limit > initialBytes) {
        limit = Math.max(initialBytes, limit - step);
        shrinks.incrementAndGet();
        long cap = rows.capacity();
        if (cap > limit) {
          rows.capacity(limit); // the KV cache first: the sum never exceeds the budget
          l1.resize(l1.maxSize() + cap - limit);
        }
      }
    } finally {
      resizing.unlock();
    }
  }

  /** Bytes of L1's budget the KV cache holds now (what it may fill before reserving more). */
  public long capacity() {
    return rows.capacity();
  }

  /** The KV cache's size limit: the most it may reserve before it must earn another step. */
  public long limit() {
    return limit;
  }

  public long bytes() {
    return rows.bytes();
  }

  public long entries() {
    return rows.entries();
  }

  /** Files with rows in the cache (for tests: 0 once every file was evicted). */
  int indexedFiles() {
    return byFile.size();
  }

  public Map<String, Number> metrics() {
    Map<String, Number> m = new TreeMap<>();
    long h = hits.get();
    long mi = misses.get();
    m.put("kvcache.hits", h);
    m.put("kvcache.misses", mi);
    m.put("kvcache.hit.ratio", h + mi == 0 ? 0.0 : h / (double) (h + mi));
    m.put("kvcache.promotions", promotions.get());
    m.put("kvcache.evictions", rows.evictions());
    m.put("kvcache.bytes", rows.bytes());
    m.put("kvcache.max.bytes", limit);
    m.put("kvcache.reserved.bytes", rows.capacity());
    m.put("kvcache.entries", rows.entries());
    m.put("kvcache.grows", grows.get());
    m.put("kvcache.shrinks", shrinks.get());
    return m;
  }
}
