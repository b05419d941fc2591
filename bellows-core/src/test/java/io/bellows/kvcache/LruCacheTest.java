package io.bellows.kvcache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LruCacheTest {
  private final List<Integer> evicted = new ArrayList<>();
  private final LruCache<Integer, String> cache = new LruCache<>(1_000, evicted::add);

  @Test
  void evictsTheLeastRecentlyUsedFirst() {
    for (int key = 0; key < 10; key++) {
      cache.put(key, "v" + key, 100);
    }
    assertThat(evicted).as("exactly at the capacity").isEmpty();
    cache.get(0);

    cache.put(10, "v10", 100); // 1,100 bytes: evict the oldest, sparing 0 (just read)

    assertThat(evicted).containsExactly(1);
    assertThat(cache.bytes()).isEqualTo(1_000);
    assertThat(cache.get(0)).isEqualTo("v0");
  }

  @Test
  void aReadMovesAnEntryToTheFront() {
    for (int key = 0; key < 10; key++) {
      cache.put(key, "v" + key, 100);
    }
    for (int key = 9; key >= 0; key--) {
      cache.get(key); // now 9 is the least recently used and 0 the most
    }

    cache.capacity(500);

    assertThat(evicted).containsExactly(9, 8, 7, 6, 5);
    assertThat(cache.bytes()).isEqualTo(500);
  }

  @Test
  void holdsAValueAsLargeAsTheCapacity() {
    cache.put(1, "small", 10);
    cache.put(2, "whole", 1_000);

    assertThat(cache.get(2)).isEqualTo("whole");
    assertThat(evicted).containsExactly(1);
    assertThat(cache.bytes()).isEqualTo(1_000);
  }
}
