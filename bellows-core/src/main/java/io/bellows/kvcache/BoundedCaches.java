package io.bellows.kvcache;

import io.bellows.config.KvCachePolicy;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds the KV cache's storage for a replacement policy. */
public final class BoundedCaches {
  private BoundedCaches() {}

  public static <K, V> BoundedCache<K, V> create(KvCachePolicy policy, long capacity, double f, double d,
      BoundedCache.EvictionListener<K> listener) {
    return new SimpleLru<>(capacity, listener);
  }

  /** A least-recently-used map under one lock. */
  private static final class SimpleLru<K, V> implements BoundedCache<K, V> {
    private final LinkedHashMap<K, Map.Entry<V, Integer>> map = new LinkedHashMap<>(16, 0.75f, true);
    private final EvictionListener<K> listener;
    private long capacity;
    private long bytes;
    private long evictions;

    SimpleLru(long capacity, EvictionListener<K> listener) {
      this.capacity = capacity;
      this.listener = listener;
    }

    @Override
    public synchronized V get(K key) {
      Map.Entry<V, Integer> e = map.get(key);
      return e == null ? null : e.getKey();
    }

    @Override
    public void put(K key, V value, int size) {
      java.util.List<K> gone = new java.util.ArrayList<>();
      synchronized (this) {
        if (size > capacity) {
          return;
        }
        Map.Entry<V, Integer> old = map.put(key, Map.entry(value, size));
        bytes += size - (old == null ? 0 : old.getValue());
        trim(gone);
      }
      gone.forEach(listener::evicted);
    }

    private void trim(java.util.List<K> gone) {
      Iterator<Map.Entry<K, Map.Entry<V, Integer>>> it = map.entrySet().iterator();
      while (bytes > capacity && it.hasNext()) {
        Map.Entry<K, Map.Entry<V, Integer>> e = it.next();
        bytes -= e.getValue().getValue();
        it.remove();
        evictions++;
        gone.add(e.getKey());
      }
    }

    @Override
    public synchronized void remove(K key) {
      Map.Entry<V, Integer> old = map.remove(key);
      if (old != null) {
        bytes -= old.getValue();
      }
    }

    @Override
    public void capacity(long newCapacity) {
      java.util.List<K> gone = new java.util.ArrayList<>();
      synchronized (this) {
        capacity = newCapacity;
        trim(gone);
      }
      gone.forEach(listener::evicted);
    }

    @Override
    public synchronized long capacity() {
      return capacity;
    }

    @Override
    public synchronized long bytes() {
      return bytes;
    }

    @Override
    public synchronized long entries() {
      return map.size();
    }

    @Override
    public synchronized long evictions() {
      return evictions;
    }
  }
}
