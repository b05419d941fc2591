package io.bellows.bench;

import io.bellows.kvcache.BoundedCache;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The design {@link io.bellows.kvcache.LruCache} was measured against (and lost to, on 2 cores):
 * least recently used first, bounded by bytes, with a lock-free hit path.
 *
 * <p>A hit takes no lock: a {@link ConcurrentHashMap} lookup and a stamp from a shared access clock
 * written to the entry. Recency order is only worked out when a put takes the bytes over the
 * capacity: that put evicts in a batch, oldest stamp first, down to {@link #LOW_WATERMARK} of the
 * capacity, so a run (which sorts a snapshot of the stamps) frees a twentieth of the capacity. An
 * entry read after the snapshot was taken is skipped, as it is no longer old. It measured several
 * times dearer per operation than the one lock, with 4 threads on 2 cores (BENCHMARKS.md, "KV cache
 * replacement policies").
 *
 * <p>Bound: when no put is in flight, {@link #bytes()} ≤ capacity (the put that crosses it waits
 * for the eviction lock and evicts before it returns); concurrent puts may exceed it by the entries
 * still in flight. A value larger than the low watermark is declined (an eviction run could not keep
 * it), dropping any older entry under its key without reporting it.
 *
 * <p>Invariants: {@link #bytes()} is the sum of the bytes of the entries in the map (added after an
 * entry is published, taken off once by whoever removes it), and only the eviction that removed an
 * entry reports it.
 */
final class StampedLruCache<K, V> implements BoundedCache<K, V> {
  /** An eviction run frees down to this share of the capacity. */
  static final double LOW_WATERMARK = 0.95;

  private final EvictionListener<K> listener;
  private final ConcurrentHashMap<K, Entry<K, V>> map = new ConcurrentHashMap<>();
  private final AtomicLong clock = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong evictions = new AtomicLong();
  private final ReentrantLock evictionLock = new ReentrantLock();
  private volatile long capacity;

  StampedLruCache(long capacity, EvictionListener<K> listener) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must not be negative: " + capacity);
    }
    this.capacity = capacity;
    this.listener = listener;
  }

  private static final class Entry<K, V> {
    final K key;
    final V value;
    final int bytes;
    volatile long lastAccess;

    Entry(K key, V value, int bytes, long now) {
      this.key = key;
      this.value = value;
      this.bytes = bytes;
      this.lastAccess = now;
    }
  }

  /** An entry and its stamp when the eviction run looked (the stamp moves on if it is read). */
  private record Candidate<K, V>(long stamp, Entry<K, V> entry) {}

  @Override
  public V get(K key) {
    Entry<K, V> e = map.get(key);
    if (e == null) {
      return null;
    }
    e.lastAccess = clock.incrementAndGet();
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
    if (size > (long) (capacity * LOW_WATERMARK)) {
      remove(key);
      return;
    }
    Entry<K, V> old = map.put(key, new Entry<>(key, value, size, clock.incrementAndGet()));
    long total = bytes.addAndGet(old == null ? size : size - old.bytes);
    if (total > capacity) {
      evict();
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
    if (bytes.get() > newCapacity) {
      evict();
    }
  }

  @Override
  public long capacity() {
    return capacity;
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

  /** Evicts least recently used first until the bytes are at or below the low watermark. */
  private void evict() {
    evictionLock.lock();
    try {
      long cap = capacity;
      if (bytes.get() <= cap) {
        return; // another thread evicted while this one waited
      }
      long target = (long) (cap * LOW_WATERMARK);
      // The first pass spares the entries read since its snapshot (they are no longer old); the
      // second, needed only when reads moved many of the oldest to the front meanwhile, spares none,
      // so that the run always ends at or below the target.
      for (int pass = 0; pass < 2 && bytes.get() > target; pass++) {
        List<Candidate<K, V>> oldestFirst = new ArrayList<>(map.size());
        for (Entry<K, V> e : map.values()) {
          oldestFirst.add(new Candidate<>(e.lastAccess, e));
        }
        oldestFirst.sort(Comparator.comparingLong(Candidate::stamp));
        for (Candidate<K, V> c : oldestFirst) {
          if (bytes.get() <= target) {
            return;
          }
          Entry<K, V> e = c.entry();
          if ((pass > 0 || e.lastAccess == c.stamp()) && map.remove(e.key, e)) {
            bytes.addAndGet(-e.bytes);
            evictions.incrementAndGet();
            listener.evicted(e.key);
          }
        }
      }
    } finally {
      evictionLock.unlock();
    }
  }
}
