package io.bellows.kvcache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TinyLfuCacheTest {
  private final List<Integer> evicted = new ArrayList<>();
  private final List<Thread> evictingThreads = new ArrayList<>();
  private final TinyLfuCache<Integer, String> cache = new TinyLfuCache<>(10_000, key -> {
    evicted.add(key);
    evictingThreads.add(Thread.currentThread());
  });

  @Test
  void evictsOnThePuttingThreadBeforeThePutReturns() {
    for (int key = 0; key < 100; key++) {
      cache.put(key, "v", 100);
    }
    assertThat(evicted).isEmpty();

    cache.put(100, "v", 100);

    assertThat(evicted).hasSize(1);
    assertThat(evictingThreads).containsOnly(Thread.currentThread());
    assertThat(cache.bytes()).isEqualTo(10_000);
  }

  @Test
  void frequentlyReadEntriesSurviveAScanOfOneTimeKeys() {
    // Caffeine starts counting frequencies once the cache is half full: fill it past that first.
    for (int key = 100; key < 160; key++) {
      cache.put(key, "cold", 100);
    }
    for (int key = 0; key < 40; key++) {
      cache.put(key, "hot", 100);
      for (int read = 0; read < 10; read++) {
        cache.get(key);
      }
    }
    assertThat(evicted).isEmpty();

    // Twice as many one-time keys as the cache holds: LRU would keep only these. (A much longer scan
    // makes Caffeine's hill climber grow the LRU window, and the hot entries age out too.)
    for (int key = 1_000; key < 1_200; key++) {
      cache.put(key, "scan", 100);
    }

    long hotHeld = 0;
    for (int key = 0; key < 40; key++) {
      hotHeld += cache.get(key) == null ? 0 : 1;
    }
    assertThat(hotHeld).as("hot entries still held").isGreaterThanOrEqualTo(32);
    assertThat(cache.bytes()).isLessThanOrEqualTo(10_000);
  }

  @Test
  void changesTheMaximumOfCaffeinesPolicy() {
    for (int key = 0; key < 100; key++) {
      cache.put(key, "v", 100);
    }

    cache.capacity(2_500);

    assertThat(cache.capacity()).isEqualTo(2_500);
    assertThat(cache.bytes()).isLessThanOrEqualTo(2_500);
    assertThat(evicted).hasSize(100 - (int) cache.entries());
  }

  @Test
  void replacementsAndRemovalsAreNotReported() {
    cache.put(1, "a", 100);
    cache.put(1, "b", 200);
    cache.remove(1);

    assertThat(evicted).isEmpty();
    assertThat(cache.evictions()).isZero();
    assertThat(cache.bytes()).isZero();
  }
}
