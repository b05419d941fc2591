package io.bellows.kvcache;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The SAC 2024 paper's replacement policy (§4.2): evict the entry of lowest weight
 *
 * <pre>W = NormalizedAccessFrequency^f / (DataSize^d × (now − LastAccessTime))</pre>
 *
 * <p><b>Time</b> is a logical clock that ticks once per request to the cache (every get, hit or
 * miss, and every put), not wall time: an entry's age is then "requests since", which is what
 * recency means to a cache, it does not jump with pauses or load, and tests replay exactly.
 *
 * <p><b>Normalized frequency</b> is accesses per tick of residence: (gets that hit + 1 for the put)
 * / (now − time of the put + 1). Dividing by a cache-wide constant (the mean count) would not change
 * any ranking; dividing by the time in cache does: a raw count only grows, so long-resident rows
 * that were hot once would outrank every newcomer forever (the pollution that makes plain LFU poor).
 *
 * <p><b>Edge cases</b>: both time differences count the current tick (+1), so a row put or read in
 * this very tick has age 1, not 0; a size below one byte counts as one; so W is finite and positive.
 *
 * <p><b>Costs</b>: a hit is a {@link ConcurrentHashMap} lookup, one increment of the shared clock
 * and two writes to the entry (its last access, and an atomic add to its count): no lock. Weights
 * are computed only by reclamation, which runs when a put takes the bytes above the high watermark
 * ({@link #HIGH_WATERMARK} of the capacity) and evicts lowest W first down to the low one
 * ({@link #LOW_WATERMARK}), so that a run frees a tenth of the capacity and runs are rare. The runs
 * share a min-heap of (W, entry), rebuilt from every entry when it is older than the cache has
 * entries in ticks (each row had time to be read again), refreshed lazily in between: an entry read
 * since its weight was computed is re-weighed and pushed back instead of evicted.
 *
 * <p><b>Bound</b>: when no put is in flight, {@link #bytes()} ≤ high watermark ≤ capacity (the put
 * that crosses it waits for the eviction lock and reclaims before it returns); while puts run
 * concurrently the bytes may exceed it by the entries of the puts still in flight. A value larger
 * than the low watermark is declined (a reclamation could not keep it), and a declined put drops any
 * older entry under its key, without reporting it.
 *
 * <p>Invariants: {@link #bytes()} is the sum of the bytes of the entries in the map (an entry's
 * bytes are added after it is published and taken off once, by whoever removes it from the map),
 * and an entry is reported to the listener only by the reclamation that removed it.
 */
public final class WeightedCache<K, V> implements BoundedCache<K, V> {
  /** Reclamation starts when the bytes exceed this share of the capacity. */
  public static final double HIGH_WATERMARK = 0.95;
  /** Reclamation evicts until the bytes are at or below this share of the capacity. */
  public static final double LOW_WATERMARK = 0.85;
  /** The heap is rebuilt at least this often (in ticks), whatever the number of entries. */
  static final long MIN_REFRESH_TICKS = 1024;

  private final double frequencyExponent;
  private final double sizeExponent;
  private final EvictionListener<K> listener;
  private final ConcurrentHashMap<K, Entry<K, V>> map = new ConcurrentHashMap<>();
  private final AtomicLong clock = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong evictions = new AtomicLong();
  private final ReentrantLock reclaimLock = new ReentrantLock();
  private volatile long capacity;
  // Guarded by reclaimLock.
  private PriorityQueue<Weighed<K, V>> heap = new PriorityQueue<>();
  private long heapBuiltAt = Long.MIN_VALUE;

  /**
   * @param frequencyExponent f, ≥ 0 (bellows.kvcache.weight.frequency.exponent)
   * @param sizeExponent d, ≥ 0 (bellows.kvcache.weight.size.exponent)
   */
  public WeightedCache(long capacity, double frequencyExponent, double sizeExponent, EvictionListener<K> listener) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must not be negative: " + capacity);
    }
    if (!(frequencyExponent >= 0) || !(sizeExponent >= 0)) {
      throw new IllegalArgumentException("exponents must be >= 0: f=" + frequencyExponent + ", d=" + sizeExponent);
    }
    this.capacity = capacity;
    this.frequencyExponent = frequencyExponent;
    this.sizeExponent = sizeExponent;
    this.listener = listener;
  }

  static final class Entry<K, V> {
    private static final AtomicIntegerFieldUpdater<Entry<?, ?>> ACCESSES =
        AtomicIntegerFieldUpdater.newUpdater(castClass(), "accesses");

    final K key;
    final V value;
    final int bytes;
    final long insertedAt;
    volatile long lastAccess;
    volatile int accesses = 1;

    Entry(K key, V value, int bytes, long now) {
      this.key = key;
      this.value = value;
      this.bytes = bytes;
      this.insertedAt = now;
      this.lastAccess = now;
    }

    void touch(long now) {
      lastAccess = now;
      if (accesses < Integer.MAX_VALUE) {
        ACCESSES.incrementAndGet(this);
      }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Class<Entry<?, ?>> castClass() {
      return (Class) Entry.class;
    }
  }

  /** A heap node: an entry's weight as computed at {@code at}. */
  private record Weighed<K, V>(double weight, long at, Entry<K, V> entry) implements Comparable<Weighed<K, V>> {
    @Override
    public int compareTo(Weighed<K, V> o) {
      return Double.compare(weight, o.weight);
    }
  }

  /** W of {@code e} at tick {@code now}; finite and positive. */
  double weight(Entry<K, V> e, long now) {
    double residence = Math.max(1, now - e.insertedAt + 1);
    double idle = Math.max(1, now - e.lastAccess + 1);
    double frequency = e.accesses / residence;
    double size = Math.max(1, e.bytes);
    return power(frequency, frequencyExponent) / (power(size, sizeExponent) * idle);
  }

  private static double power(double x, double exponent) {
    return exponent == 1 ? x : Math.pow(x, exponent);
  }

  @Override
  public V get(K key) {
    long now = clock.incrementAndGet();
    Entry<K, V> e = map.get(key);
    if (e == null) {
      return null;
    }
    e.touch(now);
    return e.value;
  }

  @Override
  public boolean contains(K key) {
    return map.containsKey(key);
  }

  @Override
  public void put(K key, V value, int size) {
    if (size < 0) {
      throw new IllegalArgumentException("bytes must not be negative: " + size);
    }
    long now = clock.incrementAndGet();
    if (size > lowWatermark(capacity)) {
      remove(key);
      return;
    }
    Entry<K, V> old = map.put(key, new Entry<>(key, value, size, now));
    long total = bytes.addAndGet(old == null ? size : size - old.bytes);
    if (total > highWatermark(capacity)) {
      reclaim();
    }
  }

  @Override
  public void remove(K key) {
    Entry<K, V> old = map.remove(key);
    if (old != null) {
      bytes.addAndGet(-old.bytes);
    }
  }

  @Override
  public void capacity(long newCapacity) {
    if (newCapacity < 0) {
      throw new IllegalArgumentException("capacity must not be negative: " + newCapacity);
    }
    capacity = newCapacity;
    if (bytes.get() > highWatermark(newCapacity)) {
      reclaim();
    }
  }

  @Override
  public long capacity() {
    return capacity;
  }

  @Override
  public long evictsAbove() {
    return highWatermark(capacity);
  }

  @Override
  public long bytes() {
    return bytes.get();
  }

  @Override
  public long entries() {
    return map.size();
  }

  @Override
  public long evictions() {
    return evictions.get();
  }

  static long highWatermark(long capacity) {
    return (long) (capacity * HIGH_WATERMARK);
  }

  static long lowWatermark(long capacity) {
    return (long) (capacity * LOW_WATERMARK);
  }

  /** Evicts lowest W first until the bytes are at or below the low watermark. */
  private void reclaim() {
    reclaimLock.lock();
    try {
      long target = lowWatermark(capacity);
      if (bytes.get() <= target) {
        return; // another thread reclaimed while this one waited
      }
      long now = clock.get();
      boolean rebuilt = false;
      if (heap.isEmpty() || now - heapBuiltAt > Math.max(MIN_REFRESH_TICKS, map.size())) {
        rebuildHeap(now);
        rebuilt = true;
      }
      while (bytes.get() > target) {
        Weighed<K, V> lowest = heap.poll();
        if (lowest == null) {
          if (rebuilt) {
            return; // the bytes over the target belong to removals still in flight
          }
          rebuildHeap(now);
          rebuilt = true;
          continue;
        }
        Entry<K, V> e = lowest.entry();
        if (map.get(e.key) != e) {
          continue; // removed or replaced since it was weighed
        }
        if (e.lastAccess > lowest.at() && lowest.at() < now) {
          heap.add(new Weighed<>(weight(e, now), now, e)); // read since: weigh again
          continue;
        }
        if (map.remove(e.key, e)) {
          bytes.addAndGet(-e.bytes);
          evictions.incrementAndGet();
          listener.evicted(e.key);
        }
      }
    } finally {
      reclaimLock.unlock();
    }
  }

  private void rebuildHeap(long now) {
    List<Weighed<K, V>> nodes = new ArrayList<>(map.size());
    for (Entry<K, V> e : map.values()) {
      nodes.add(new Weighed<>(weight(e, now), now, e));
    }
    heap = new PriorityQueue<>(nodes); // heapify: linear in the entries
    heapBuiltAt = now;
  }
}
