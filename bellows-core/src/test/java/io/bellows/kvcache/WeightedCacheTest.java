package io.bellows.kvcache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WeightedCacheTest {
  private final List<String> evicted = new ArrayList<>();

  private WeightedCache<String, String> cache(long capacity) {
    return new WeightedCache<>(capacity, 1.0, 1.0, evicted::add);
  }

  @Test
  void ofTwoEqualSizesTheMoreOftenReadSurvives() {
    WeightedCache<String, String> cache = cache(1_000);
    cache.put("often", "o", 100);
    cache.put("once", "x", 100);
    for (int i = 0; i < 9; i++) {
      cache.get("often");
    }
    cache.get("once"); // the more recent read, and the more recent put: only frequency favours "often"

    cache.capacity(150); // 200 bytes > the high watermark: one must go

    assertThat(evicted).containsExactly("once");
    assertThat(cache.get("often")).isEqualTo("o");
  }

  @Test
  void ofTwoEquallyReadTheSmallerSurvives() {
    WeightedCache<String, String> cache = cache(1_000);
    cache.put("small", "s", 10);
    cache.put("large", "l", 200);
    for (int i = 0; i < 10; i++) {
      cache.get("small");
      cache.get("large"); // "large" was put and read more recently
    }

    cache.capacity(220); // 210 bytes > the high watermark (209): one must go

    assertThat(evicted).containsExactly("large");
    assertThat(cache.get("small")).isEqualTo("s");
  }

  @Test
  void reclaimsOnlyAboveTheHighWatermarkAndDownToTheLowOne() {
    WeightedCache<String, String> cache = cache(1_000);
    for (int i = 0; i < 9; i++) {
      cache.put("k" + i, "v", 100);
    }
    cache.put("fill", "v", 50);
    assertThat(cache.bytes()).isEqualTo(950); // at the high watermark, not above
    assertThat(evicted).isEmpty();

    cache.put("over", "v", 10);

    assertThat(cache.bytes()).isLessThanOrEqualTo(WeightedCache.lowWatermark(1_000));
    assertThat(evicted).isNotEmpty();
    assertThat(cache.evictions()).isEqualTo(evicted.size());
  }

  @Test
  void staysWithinTheHighWatermarkAfterEveryPut() {
    WeightedCache<Integer, Integer> cache = new WeightedCache<>(10_000, 1.0, 1.0, k -> {});
    for (int i = 0; i < 5_000; i++) {
      int bytes = (i * 7919) % 1_200;
      cache.put(i % 700, i, bytes);
      if (i % 3 == 0) {
        cache.get((i * 31) % 700);
      }
      assertThat(cache.bytes()).isLessThanOrEqualTo(WeightedCache.highWatermark(10_000));
    }
  }

  @Test
  void declinesAValueAboveTheLowWatermark() {
    WeightedCache<String, String> cache = cache(1_000);
    cache.put("fits", "v", 850);
    cache.put("too-big", "v", 851); // a reclamation down to 850 could not keep it

    assertThat(cache.get("fits")).isEqualTo("v");
    assertThat(cache.get("too-big")).isNull();
    assertThat(evicted).isEmpty();
  }

  @Test
  void weightIsFiniteAndPositiveAtAgeZeroAndSizeZero() {
    WeightedCache<String, String> cache = cache(1_000);
    WeightedCache.Entry<String, String> fresh = new WeightedCache.Entry<>("k", "v", 0, 7);
    assertThat(cache.weight(fresh, 7)).isFinite().isPositive();

    WeightedCache<String, String> steep = new WeightedCache<>(1_000, 4.0, 4.0, k -> {});
    WeightedCache.Entry<String, String> oldLarge = new WeightedCache.Entry<>("k", "v", 64 * 1024, 0);
    assertThat(steep.weight(oldLarge, 1_000_000_000_000L)).isFinite().isPositive();

    WeightedCache<String, String> flat = new WeightedCache<>(1_000, 0.0, 0.0, k -> {});
    assertThat(flat.weight(fresh, 9)).as("f = d = 0 leaves 1 / idle time").isEqualTo(1.0 / 3);
  }

  @Test
  void anEntryReadSinceTheHeapWasBuiltIsWeighedAgainNotEvicted() {
    WeightedCache<String, String> cache = cache(1_000);
    for (int i = 0; i < 8; i++) {
      cache.put("k" + i, "v", 100);
    }
    cache.capacity(800); // 800 > 760: the first reclamation builds the heap and evicts k0, then k1
    assertThat(evicted).containsExactly("k0", "k1");
    evicted.clear();

    for (int i = 0; i < 20; i++) {
      cache.get("k2"); // k2 is now the hottest, but the heap still weighs it as the coldest
    }
    cache.capacity(600); // 600 > 570: the second reclamation reuses the heap, evicting down to 510

    assertThat(evicted).containsExactly("k3");
    assertThat(cache.get("k2")).isEqualTo("v");
  }
}
