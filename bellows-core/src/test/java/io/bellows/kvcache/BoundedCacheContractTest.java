package io.bellows.kvcache;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.config.KvCachePolicy;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What every replacement policy promises (BoundedCaches' class comment), run against each of them. */
@ExtendWith(SeedExtension.class)
class BoundedCacheContractTest {
  static final long CAPACITY = 10_000;

  /** A value that says which put made it and how many bytes that put gave. */
  record Put(int serial, int bytes) {}

  /** The entries the test knows to be held; checks each reported eviction against them. */
  static final class Model implements BoundedCache.EvictionListener<Integer> {
    final Map<Integer, Put> held = new HashMap<>();
    final List<Integer> evicted = new ArrayList<>();

    @Override
    public void evicted(Integer key) {
      assertThat(held.remove(key)).as("key %s reported evicted while not held (or reported twice)", key).isNotNull();
      evicted.add(key);
    }

    long bytes() {
      return held.values().stream().mapToLong(Put::bytes).sum();
    }
  }

  static BoundedCache<Integer, Put> cache(KvCachePolicy policy, long capacity, BoundedCache.EvictionListener<Integer> l) {
    return BoundedCaches.create(policy, capacity, 1.0, 1.0, l);
  }

  /** The most bytes a policy may hold once no put is in flight. */
  static long bound(KvCachePolicy policy, long capacity) {
    return policy == KvCachePolicy.WEIGHTED ? WeightedCache.highWatermark(capacity) : capacity;
  }

  @ParameterizedTest
  @EnumSource(KvCachePolicy.class)
  void createsThePolicyAsked(KvCachePolicy policy) {
    Class<?> expected = switch (policy) {
      case WEIGHTED -> WeightedCache.class;
      case LRU -> LruCache.class;
      case TINYLFU -> TinyLfuCache.class;
    };
    assertThat(cache(policy, CAPACITY, k -> {})).isInstanceOf(expected);
  }

  /** What the KV cache's sizing relies on: a put that keeps the bytes within evictsAbove evicts nothing. */
  @ParameterizedTest
  @EnumSource(KvCachePolicy.class)
  void evictsAboveIsThePolicysBoundAndPutsWithinItEvictNothing(KvCachePolicy policy) {
    Model model = new Model();
    BoundedCache<Integer, Put> c = cache(policy, CAPACITY, model);
    assertThat(c.evictsAbove()).isEqualTo(bound(policy, CAPACITY)).isLessThanOrEqualTo(c.capacity());
    int i = 0;
    while (c.bytes() + 100 <= c.evictsAbove()) {
      c.put(i, new Put(i, 100), 100);
      model.held.put(i, new Put(i, 100));
      i++;
    }
    assertThat(c.evictions()).as("%d puts within %d bytes", i, c.evictsAbove()).isZero();
    assertThat(c.entries()).isEqualTo(i);
    c.capacity(2 * CAPACITY);
    assertThat(c.evictsAbove()).isEqualTo(bound(policy, 2 * CAPACITY));
  }

  @ParameterizedTest
  @EnumSource(KvCachePolicy.class)
  void randomOperationsKeepTheBoundAndTheBooks(KvCachePolicy policy, Seed seed) {
    Model model = new Model();
    BoundedCache<Integer, Put> cache = cache(policy, CAPACITY, model);
    Random random = seed.random();
    for (int serial = 0; serial < 20_000; serial++) {
      int key = random.nextInt(500);
      int op = random.nextInt(10);
      if (op < 6) {
        assertThat(cache.contains(key)).as("contains %s after op %d, %s", key, serial, seed)
            .isEqualTo(model.held.containsKey(key));
        Put got = cache.get(key);
        assertThat(got).as("get %s after op %d, %s", key, serial, seed).isEqualTo(model.held.get(key));
      } else if (op < 9) {
        int bytes = random.nextInt(100) == 0 ? (int) CAPACITY + 1 : random.nextInt(1500);
        Put put = new Put(serial, bytes);
        model.held.remove(key); // replaced, or dropped when declined
        if (bytes < CAPACITY / 2) {
          model.held.put(key, put); // before the put: the policy may evict the newcomer at once
        }
        cache.put(key, put, bytes);
      } else {
        cache.remove(key);
        model.held.remove(key);
      }
      assertThat(cache.bytes()).as("bytes after op %d, %s", serial, seed).isEqualTo(model.bytes())
          .isLessThanOrEqualTo(bound(policy, CAPACITY));
      assertThat(cache.entries()).isEqualTo(model.held.size());
      assertThat(cache.evictions()).isEqualTo(model.evicted.size());
    }
    assertThat(model.evicted).as("the policy had to evict").isNotEmpty();
  }

  @org.junit.jupiter.api.Test
  void containsRecordsNoAccess() {
    Model model = new Model();
    BoundedCache<Integer, Put> cache = cache(KvCachePolicy.LRU, 300, model);
    for (int key = 0; key < 4; key++) {
      model.held.put(key, new Put(key, 100));
    }
    for (int key = 0; key < 3; key++) {
      cache.put(key, model.held.get(key), 100);
    }
    assertThat(cache.contains(0)).isTrue();
    cache.put(3, model.held.get(3), 100);
    assertThat(model.evicted).as("0 stays the least recently used").containsExactly(0);
    assertThat(cache.contains(0)).isFalse();
  }

  @ParameterizedTest
  @EnumSource(KvCachePolicy.class)
  void removeIsNotReported(KvCachePolicy policy) {
    Model model = new Model();
    BoundedCache<Integer, Put> cache = cache(policy, CAPACITY, model);
    for (int key = 0; key < 10; key++) {
      model.held.put(key, new Put(key, 100));
      cache.put(key, model.held.get(key), 100);
    }
    cache.remove(3);
    model.held.remove(3);

    cache.capacity(0);

    assertThat(model.evicted).containsExactlyInAnyOrder(0, 1, 2, 4, 5, 6, 7, 8, 9);
    assertThat(cache.bytes()).isZero();
    assertThat(cache.entries()).isZero();
    assertThat(cache.evictions()).isEqualTo(9);
  }

  @ParameterizedTest
  @EnumSource(KvCachePolicy.class)
  void shrinkingTheCapacityEvicts(KvCachePolicy policy) {
    Model model = new Model();
    BoundedCache<Integer, Put> cache = cache(policy, CAPACITY, model);
    for (int key = 0; key < 50; key++) {
      model.held.put(key, new Put(key, 100));
      cache.put(key, model.held.get(key), 100);
    }
    assertThat(model.evicted).isEmpty();

    cache.capacity(2_000);

    assertThat(cache.capacity()).isEqualTo(2_000);
    assertThat(cache.bytes()).isLessThanOrEqualTo(bound(policy, 2_000)).isEqualTo(model.bytes()).isPositive();
    assertThat(model.evicted).hasSize(50 - model.held.size()).doesNotHaveDuplicates();
    for (int key = 0; key < 50; key++) {
      assertThat(cache.get(key)).isEqualTo(model.held.get(key));
    }
  }

  @ParameterizedTest
  @EnumSource(KvCachePolicy.class)
  void declinesAValueLargerThanTheCapacity(KvCachePolicy policy) {
    Model model = new Model();
    BoundedCache<Integer, Put> cache = cache(policy, CAPACITY, model);
    cache.put(1, new Put(1, 100), 100);
    cache.put(2, new Put(2, 100), 100);

    cache.put(1, new Put(3, (int) CAPACITY + 1), (int) CAPACITY + 1); // replaces: the old value must not stay
    cache.put(3, new Put(4, Integer.MAX_VALUE), Integer.MAX_VALUE);

    assertThat(cache.get(1)).isNull();
    assertThat(cache.get(3)).isNull();
    assertThat(cache.get(2)).isEqualTo(new Put(2, 100));
    assertThat(cache.bytes()).isEqualTo(100);
    assertThat(cache.entries()).isEqualTo(1);
    assertThat(model.evicted).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(KvCachePolicy.class)
  void concurrentOperationsKeepTheBooks(KvCachePolicy policy, Seed seed) throws Exception {
    int threads = 4;
    int keys = 1_000;
    AtomicLong reported = new AtomicLong();
    BoundedCache<Integer, Put> cache = cache(policy, 20_000, k -> reported.incrementAndGet());
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        Random random = seed.random(t);
        int thread = t;
        done.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < 50_000; i++) {
            int key = random.nextInt(keys);
            int op = random.nextInt(100);
            if (op < 60) {
              Put got = cache.get(key);
              assertThat(got == null || got.bytes() <= 20_000).isTrue();
            } else if (op < 90) {
              int bytes = random.nextInt(800);
              cache.put(key, new Put(i, bytes), bytes);
            } else if (op < 99 || thread != 0) {
              cache.remove(key);
            } else {
              cache.capacity(random.nextBoolean() ? 20_000 : 12_000);
            }
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(2, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }

    long bytes = cache.bytes();
    long held = 0;
    long heldBytes = 0;
    for (int key = 0; key < keys; key++) {
      Put p = cache.get(key);
      if (p != null) {
        held++;
        heldBytes += p.bytes();
      }
    }
    assertThat(bytes).as("bytes() against the held entries, %s", seed).isEqualTo(heldBytes)
        .isLessThanOrEqualTo(bound(policy, cache.capacity()));
    assertThat(cache.entries()).isEqualTo(held);
    assertThat(cache.evictions()).isEqualTo(reported.get()).isPositive();
  }
}
