package io.bellows.kvcache;

import io.bellows.config.KvCachePolicy;

/**
 * Makes the {@link BoundedCache} of a replacement policy (bellows.kvcache.policy).
 *
 * <p>What every policy guarantees: when no put is in flight the bytes are within the capacity
 * (WEIGHTED: within its high watermark, 95% of it); shrinking the capacity evicts before it returns;
 * a value larger than the capacity is declined and leaves no entry under its key; each entry the
 * policy evicts is reported once, after it is gone, and removals and replacements are not reported.
 */
public final class BoundedCaches {
  private BoundedCaches() {}

  /**
   * @param frequencyExponent WEIGHTED's f (bellows.kvcache.weight.frequency.exponent); others ignore it
   * @param sizeExponent WEIGHTED's d (bellows.kvcache.weight.size.exponent); others ignore it
   */
  public static <K, V> BoundedCache<K, V> create(KvCachePolicy policy, long capacity, double frequencyExponent,
      double sizeExponent, BoundedCache.EvictionListener<K> listener) {
    return switch (policy) {
      case WEIGHTED -> new WeightedCache<>(capacity, frequencyExponent, sizeExponent, listener);
      case LRU -> new LruCache<>(capacity, listener);
      case TINYLFU -> new TinyLfuCache<>(capacity, listener);
    };
  }
}
