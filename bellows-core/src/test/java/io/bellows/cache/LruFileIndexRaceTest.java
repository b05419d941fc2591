package io.bellows.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A block evicted and put again at once must stay findable by its file: one thread keeps putting the
 * same block of file 1 back whenever it is gone, another keeps filling the cache with blocks of file
 * 2 so that eviction runs keep taking it out. After each round, evicting file 1 must leave none of
 * its blocks. The index used to lose the key when the run's removal from it landed after the reader's
 * new add; this test failed in three runs of four then (a race: it can pass by luck, never fail
 * without the bug).
 */
class LruFileIndexRaceTest {
  private static final int ROUNDS = 1_000;
  private static final int PUTS_PER_ROUND = 5_000;

  @Test
  void aBlockPutBackDuringItsEvictionIsStillDroppedWithItsFile() throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      LruBlockCache cache = new LruBlockCache(20_000);
      BlockKey hot = new BlockKey(1, 0);
      CachedBlock block = LruBlockCacheTest.block(BlockKind.DATA, 1000, 1);
      AtomicBoolean done = new AtomicBoolean();
      CyclicBarrier start = new CyclicBarrier(2);
      Thread reader = new Thread(() -> {
        await(start);
        while (!done.get()) {
          cache.put(hot, block, false); // returns at once while the block is cached
        }
      }, "reader-of-file-1");
      reader.start();
      await(start);
      for (int i = 0; i < PUTS_PER_ROUND; i++) {
        cache.put(new BlockKey(2, (long) round * PUTS_PER_ROUND + i), block, false);
      }
      done.set(true);
      reader.join();
      cache.evictFile(1);
      assertThat(cache.contains(hot)).as("round %d: a block of evicted file 1 is still cached", round).isFalse();
    }
  }

  private static void await(CyclicBarrier b) {
    try {
      b.await();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
