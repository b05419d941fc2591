package io.bellows.kvcache;

/**
 * A map bounded by the bytes of its values, with a replacement policy deciding what leaves when it is
 * full: the storage under the KV cache ({@link io.bellows.config.KvCachePolicy} names the policies).
 * Thread-safe. Keys and values are opaque here; each entry has a size in bytes given when it is put.
 *
 * <p>An entry that leaves because of the policy (not by {@link #remove}) is reported to the
 * {@link EvictionListener} given at construction, on the thread that evicted it, after it is gone.
 */
public interface BoundedCache<K, V> {
  /** The value under {@code key}, recording the access; null if absent. */
  V get(K key);

  /** Whether an entry is under {@code key}; records no access. */
  boolean contains(K key);

  /**
   * Offers an entry of {@code bytes} bytes (replacing any under the key). The policy may decline it
   * (e.g. larger than the capacity, or TinyLFU's admission) and evicts to stay within the capacity.
   */
  void put(K key, V value, int bytes);

  /** Drops the entry under {@code key}, if any (not reported as an eviction). */
  void remove(K key);

  /** Changes the capacity; shrinking evicts until the entries fit. */
  void capacity(long bytes);

  long capacity();

  /**
   * The bytes above which a put makes the policy evict: the capacity, or less for a policy that
   * reclaims early (WEIGHTED frees a tenth of the capacity once past 95% of it). A caller that would
   * rather grow the capacity than evict (the KV cache's sizing) must compare with this, not with
   * the capacity: below the capacity but above this, the put evicts.
   */
  default long evictsAbove() {
    return capacity();
  }

  /** Bytes of the entries held. */
  long bytes();

  long entries();

  /** Entries evicted by the policy so far. */
  long evictions();

  /** Called for each entry the policy evicts. */
  @FunctionalInterface
  interface EvictionListener<K> {
    void evicted(K key);
  }
}
