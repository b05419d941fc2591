package io.bellows.kvcache;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Least recently used first, bounded by bytes: an access-ordered {@link LinkedHashMap} under one
 * lock. A hit takes the lock to move its entry to the young end of the list (a few pointer writes);
 * a put that takes the bytes over the capacity evicts from the old end, exactly down to the
 * capacity, one entry at a time.
 *
 * <p>Why one lock: it was measured against a lock-free hit path (a {@code ConcurrentHashMap} with
 * access stamps from a shared clock, evicting in batches by sorting the stamps) with 4 threads on
 * 2 cores, and was several times cheaper per operation (BENCHMARKS.md, "KV cache replacement
 * policies", where the other design runs as LRU-stamped): unlinking a list node per eviction is
 * cheap, where the other design sorts every entry's stamp once per batch. Striping the lock would split
 * the capacity into stripes too small for the largest rows.
 *
 * <p>Bound: {@link #bytes()} ≤ capacity whenever no call is inside the lock; a value larger than
 * the capacity is declined, dropping any older entry under its key without reporting it. Evicted
 * keys are reported after the lock is released, so a listener may call back into the cache.
 */
public final class LruCache<K, V> implements BoundedCache<K, V> {
  /** A value and the bytes its put gave. */
  private record Sized<V>(V value, int bytes) {}

  private final EvictionListener<K> listener;
  private final ReentrantLock lock = new ReentrantLock();
  // Guarded by lock.
  private final LinkedHashMap<K, Sized<V>> map = new LinkedHashMap<>(16, 0.75f, true);
  private long capacity;
  private long bytes;
  private long evictions;

  public LruCache(long capacity, EvictionListener<K> listener) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must not be negative: " + capacity);
    }
    this.capacity = capacity;
    this.listener = listener;
  }

  @Override
  public V get(K key) {
    lock.lock();
    try {
      Sized<V> v = map.get(key);
      return v == null ? null : v.value();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean contains(K key) {
    lock.lock();
    try {
      return map.containsKey(key); // containsKey does not reorder an access-ordered map
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void put(K key, V value, int size) {
    if (size < 0) {
      throw new IllegalArgumentException("bytes must not be negative: " + size);
    }
    List<K> evicted;
    lock.lock();
    try {
      boolean declined = size > capacity;
      Sized<V> old = declined ? map.remove(key) : map.put(key, new Sized<>(value, size));
      bytes += (declined ? 0 : size) - (old == null ? 0 : old.bytes());
      evicted = evictToCapacity();
    } finally {
      lock.unlock();
    }
    report(evicted);
  }

  @Override
  public void remove(K key) {
    lock.lock();
    try {
      Sized<V> old = map.remove(key);
      if (old != null) {
        bytes -= old.bytes();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void capacity(long newCapacity) {
    if (newCapacity < 0) {
      throw new IllegalArgumentException("capacity must not be negative: " + newCapacity);
    }
    List<K> evicted;
    lock.lock();
    try {
      capacity = newCapacity;
      evicted = evictToCapacity();
    } finally {
      lock.unlock();
    }
    report(evicted);
  }

  /** With the lock held: drops least recently used entries until the bytes fit; returns their keys. */
  private List<K> evictToCapacity() {
    if (bytes <= capacity) {
      return List.of();
    }
    List<K> evicted = new ArrayList<>();
    Iterator<Map.Entry<K, Sized<V>>> oldestFirst = map.entrySet().iterator();
    while (bytes > capacity && oldestFirst.hasNext()) {
      Map.Entry<K, Sized<V>> e = oldestFirst.next();
      oldestFirst.remove();
      bytes -= e.getValue().bytes();
      evictions++;
      evicted.add(e.getKey());
    }
    return evicted;
  }

  private void report(List<K> evicted) {
    for (K key : evicted) {
      listener.evicted(key);
    }
  }

  @Override
  public long capacity() {
    lock.lock();
    try {
      return capacity;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public long bytes() {
    lock.lock();
    try {
      return bytes;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public long entries() {
    lock.lock();
    try {
      return map.size();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public long evictions() {
    lock.lock();
    try {
      return evictions;
    } finally {
      lock.unlock();
    }
  }
}
