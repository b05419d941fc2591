package io.bellows.kvcache;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cache.BlockKind;
import io.bellows.cache.CachedBlock;
import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.config.KvCachePolicy;
import io.bellows.util.Bytes;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A row promoted again while its eviction is being reported must stay findable by its file: one
 * thread keeps promoting the same row of file 1, another keeps promoting rows of file 2 into a
 * cache with room for a few rows, so that evictions keep taking the row of file 1 out. After each
 * round, dropping file 1 must leave none of its rows. The file index used to lose the row when the
 * eviction's report (made after the cache's lock is released) landed after the new promotion. A
 * race: the test can pass by luck, never fail without the bug.
 */
class KvFileIndexRaceTest {
  private static final int ROUNDS = 300;
  private static final int PROMOTIONS_PER_ROUND = 3_000;
  private static final long CAPACITY = 4 * 1024;

  @Test
  void aRowPromotedDuringItsEvictionIsStillDroppedWithItsFile() throws Exception {
    byte[] hotRow = Bytes.of("hot");
    List<Cell> hotCells = cells("hot");
    for (int round = 0; round < ROUNDS; round++) {
      KvCache kv = new KvCache(l -> BoundedCaches.create(KvCachePolicy.LRU, CAPACITY, 1, 1, l), null, 0, CAPACITY,
          CAPACITY, 1);
      AtomicBoolean done = new AtomicBoolean();
      CyclicBarrier start = new CyclicBarrier(2);
      Thread reader = new Thread(() -> {
        await(start);
        while (!done.get()) {
          promote(kv, 1, hotRow, hotCells);
        }
      }, "reader-of-file-1");
      reader.start();
      await(start);
      for (int i = 0; i < PROMOTIONS_PER_ROUND; i++) {
        String row = "r" + i;
        promote(kv, 2, Bytes.of(row), cells(row));
      }
      done.set(true);
      reader.join();
      kv.evictFile(1);
      assertThat(kv.get(1, hotRow)).as("round %d: a row of dropped file 1 is still cached", round).isNull();
    }
  }

  /** Counts reads of the row in a fresh block until it is promoted (the second read, at minimum 1). */
  private static void promote(KvCache kv, long file, byte[] row, List<Cell> cells) {
    CachedBlock block = new CachedBlock(BlockKind.DATA, 100, new byte[64]);
    kv.countRead(file, row, cells, block, 0, () -> 16);
    kv.countRead(file, row, cells, block, 0, () -> 16);
  }

  private static List<Cell> cells(String row) {
    return List.of(Cells.put(Bytes.of(row), Bytes.of("f"), Bytes.of("q"), 1, new byte[100]));
  }

  private static void await(CyclicBarrier b) {
    try {
      b.await();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
