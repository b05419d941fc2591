package io.bellows.kvcache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Policy;
import com.github.benmanes.caffeine.cache.RemovalCause;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Window TinyLFU, by Caffeine: a small LRU window in front of a segmented LRU main space, and a
 * newcomer leaving the window enters the main space only if a count-min sketch of recent
 * frequencies rates it above the main space's victim. Frequency-aware admission, not size-aware.
 *
 * <p>Bounded by {@code maximumWeight}, each entry weighing the bytes of its put. Caffeine's
 * maintenance (applying buffered reads and writes, evicting) runs on {@link Runnable#run}: on the
 * thread of the put that needs it, so a single-threaded caller sees the bytes within the capacity
 * when its put returns and evictions are deterministic. A hit records the read in a striped,
 * lossy ring buffer (no lock); the buffers are drained in batches under Caffeine's eviction lock.
 *
 * <p>Only size evictions are reported to the listener (a newcomer refused by the admission filter
 * counts as one: it was held, then evicted); replacements and removals are not. A value larger than
 * the capacity is declined before it reaches Caffeine, dropping any older entry under its key.
 * {@link #bytes()} and {@link #entries()} first run pending maintenance, so they agree with the map.
 */
public final class TinyLfuCache<K, V> implements BoundedCache<K, V> {
  /** A value and the bytes its put gave, which are its weight. */
  private record Sized<V>(V value, int bytes) {}

  private final Cache<K, Sized<V>> cache;
  private final Policy.Eviction<K, Sized<V>> eviction;
  private final AtomicLong evictions = new AtomicLong();

  public TinyLfuCache(long capacity, EvictionListener<K> listener) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must not be negative: " + capacity);
    }
    this.cache = Caffeine.newBuilder()
        .maximumWeight(capacity)
        .weigher((K key, Sized<V> v) -> v.bytes())
        .executor(Runnable::run)
        .removalListener((K key, Sized<V> v, RemovalCause cause) -> {
          if (cause == RemovalCause.SIZE) {
            evictions.incrementAndGet();
            listener.evicted(key);
          }
        })
        .build();
    this.eviction = cache.policy().eviction().orElseThrow();
  }

  @Override
  public V get(K key) {
    Sized<V> v = cache.getIfPresent(key);
    return v == null ? null : v.value();
  }

  @Override
  public boolean contains(K key) {
    return cache.asMap().containsKey(key); // the map view records no access
  }

  @Override
  public void put(K key, V value, int bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must not be negative: " + bytes);
    }
    if (bytes > eviction.getMaximum()) {
      cache.invalidate(key);
      return;
    }
    cache.put(key, new Sized<>(value, bytes));
  }

  @Override
  public void remove(K key) {
    cache.invalidate(key);
  }

  @Override
  public void capacity(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("capacity must not be negative: " + bytes);
    }
    eviction.setMaximum(bytes);
    cache.cleanUp();
  }

  @Override
  public long capacity() {
    return eviction.getMaximum();
  }

  @Override
  public long bytes() {
    cache.cleanUp();
    return eviction.weightedSize().orElseThrow();
  }

  @Override
  public long entries() {
    cache.cleanUp();
    return cache.estimatedSize();
  }

  @Override
  public long evictions() {
    return evictions.get();
  }
}
