package io.bellows.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The on-heap cache: areas, promotion, LRU eviction within areas, size bound, file eviction, metrics. */
@ExtendWith(SeedExtension.class)
class LruBlockCacheTest {
  /** A data block whose heap size is exactly {@code heap} bytes. */
  static CachedBlock block(BlockKind kind, long heap, int fill) {
    byte[] p = new byte[(int) (heap - CachedBlock.OVERHEAD)];
    java.util.Arrays.fill(p, (byte) fill);
    return new CachedBlock(kind, p.length + 9, p);
  }

  @Test
  void aBlockReadAgainMovesFromTheSingleToTheMultiAccessArea() {
    LruBlockCache c = new LruBlockCache(100_000);
    BlockKey k = new BlockKey(1, 0);
    c.put(k, block(BlockKind.DATA, 1000, 1), false);
    assertThat(c.areaOf(k)).isEqualTo(CacheArea.SINGLE);
    assertThat(c.areaBytes(CacheArea.SINGLE)).isEqualTo(1000);
    assertThat(c.get(k, BlockKind.DATA).payload()[0]).isEqualTo((byte) 1);
    assertThat(c.areaOf(k)).isEqualTo(CacheArea.MULTI);
    assertThat(c.areaBytes(CacheArea.SINGLE)).isZero();
    assertThat(c.areaBytes(CacheArea.MULTI)).isEqualTo(1000);
    BlockKey m = new BlockKey(2, 0);
    c.put(m, block(BlockKind.DATA, 1000, 2), true);
    c.get(m, BlockKind.DATA);
    assertThat(c.areaOf(m)).isEqualTo(CacheArea.MEMORY); // in-memory blocks stay in their area
    assertThat(c.size()).isEqualTo(2000);
  }

  @Test
  void aScanOfBlocksReadOnceDoesNotPushOutBlocksReadAgain() {
    LruBlockCache c = new LruBlockCache(100_000);
    // 40 KB of hot blocks (read twice: multi-access area, under its 50% share).
    for (int i = 0; i < 40; i++) {
      c.put(new BlockKey(1, i), block(BlockKind.DATA, 1000, i), false);
      c.get(new BlockKey(1, i), BlockKind.DATA);
    }
    // 500 KB of blocks read once: far more than the cache.
    for (int i = 0; i < 500; i++) {
      c.put(new BlockKey(2, i), block(BlockKind.DATA, 1000, i), false);
      assertThat(c.size()).isLessThanOrEqualTo(100_000);
    }
    for (int i = 0; i < 40; i++) {
      assertThat(c.contains(new BlockKey(1, i))).as("hot block %d", i).isTrue();
    }
    // Within the single-access area the newest survive, the oldest went first.
    assertThat(c.contains(new BlockKey(2, 499))).isTrue();
    assertThat(c.contains(new BlockKey(2, 0))).isFalse();
    assertThat(c.stats().evictions(BlockKind.DATA)).isGreaterThan(400);
  }

  @Test
  void anAreaOverItsShareIsEvictedFirstAndLeastRecentlyUsedFirst() {
    LruBlockCache c = new LruBlockCache(100_000);
    for (int i = 0; i < 90; i++) { // 90 KB in the multi-access area, over its 50 KB share
      c.put(new BlockKey(1, i), block(BlockKind.DATA, 1000, i), false);
      c.get(new BlockKey(1, i), BlockKind.DATA);
    }
    c.get(new BlockKey(1, 0), BlockKind.DATA); // block 0 is now the most recently used
    for (int i = 0; i < 11; i++) { // 11 KB in memory: the total passes 100 KB
      c.put(new BlockKey(3, i), block(BlockKind.INDEX, 1000, i), true);
    }
    assertThat(c.size()).isLessThanOrEqualTo(95_000);
    for (int i = 0; i < 11; i++) {
      assertThat(c.contains(new BlockKey(3, i))).isTrue(); // the in-memory area is under its share
    }
    assertThat(c.contains(new BlockKey(1, 0))).isTrue();
    assertThat(c.contains(new BlockKey(1, 1))).isFalse();
  }

  @Test
  void evictedDataBlocksGoToTheVictimAndIndexBlocksDoNot() {
    List<BlockKey> victims = new ArrayList<>();
    LruBlockCache c = new LruBlockCache(10_000, (k, b) -> victims.add(k));
    for (int i = 0; i < 20; i++) {
      c.put(new BlockKey(1, i), block(i % 2 == 0 ? BlockKind.DATA : BlockKind.INDEX, 1000, i), false);
    }
    assertThat(victims).isNotEmpty().allMatch(k -> k.offset() % 2 == 0);
  }

  @Test
  void aFilesBlocksLeaveAtOnceAndTheBytesWithThem() {
    LruBlockCache c = new LruBlockCache(1_000_000);
    for (int f = 1; f <= 3; f++) {
      for (int i = 0; i < 10; i++) {
        c.put(new BlockKey(f, i * 100L), block(BlockKind.DATA, 500, i), i % 3 == 0);
      }
    }
    c.get(new BlockKey(2, 100), BlockKind.DATA);
    c.evictFile(2);
    assertThat(c.blockCount()).isEqualTo(20);
    assertThat(c.size()).isEqualTo(20 * 500);
    assertThat(c.get(new BlockKey(2, 100), BlockKind.DATA)).isNull();
    c.evictFile(1);
    c.evictFile(3);
    assertThat(c.size()).isZero();
    assertThat(c.indexedFileCount()).isZero();
    for (CacheArea a : CacheArea.values()) {
      assertThat(c.areaBytes(a)).isZero();
    }
  }

  @Test
  void oversizedBlocksAreNotCachedAndMetricsCountByKind() {
    LruBlockCache c = new LruBlockCache(10_000);
    c.put(new BlockKey(1, 0), block(BlockKind.DATA, 3000, 0), false); // over a quarter
    assertThat(c.blockCount()).isZero();
    c.put(new BlockKey(1, 1), block(BlockKind.BLOOM, 1000, 0), false);
    c.get(new BlockKey(1, 1), BlockKind.BLOOM);
    c.get(new BlockKey(1, 2), BlockKind.DATA);
    var m = c.metrics();
    assertThat(m.get("cache.l1.bloom.hits")).isEqualTo(1L);
    assertThat(m.get("cache.l1.data.misses")).isEqualTo(1L);
    assertThat(m.get("cache.l1.hit.ratio")).isEqualTo(0.5);
    assertThat(m.get("cache.l1.bytes")).isEqualTo(1000L);
    assertThat(m.get("cache.l1.multi.bytes")).isEqualTo(1000L);
    assertThat(m.get("cache.l1.bloom.bytes")).isEqualTo(1000L);
    assertThat(m.get("cache.l1.data.bytes")).isEqualTo(0L);
  }

  /**
   * Runs after a scan evict from the queue it left: they must still evict exactly the least recently
   * used blocks, as a reference LRU does, with blocks read after the scan skipped.
   */
  @Test
  void runsServedFromTheScansQueueEvictExactlyTheLeastRecentlyUsed(Seed seed) {
    Random rnd = new Random(seed.value());
    LruBlockCache c = new LruBlockCache(100_000); // 100 blocks of 1000 B
    LinkedHashSet<BlockKey> reference = new LinkedHashSet<>(); // oldest access first
    List<BlockKey> known = new ArrayList<>();
    long runs = 0;
    for (int op = 0; op < 20_000; op++) {
      if (known.isEmpty() || rnd.nextInt(3) == 0) {
        BlockKey k = new BlockKey(1, op);
        known.add(k);
        // In-memory blocks stay in one area, which then holds all and is the only one evicted from.
        c.put(k, block(BlockKind.DATA, 1000, 0), true);
        reference.add(k);
        if (reference.size() > 100) { // over the size: a run frees down to 95%
          runs++;
          Iterator<BlockKey> oldest = reference.iterator();
          while (reference.size() > 95) {
            oldest.next();
            oldest.remove();
          }
        }
      } else {
        BlockKey k = known.get(known.size() - 1 - Math.min(known.size() - 1, (int) Math.abs(rnd.nextGaussian() * 60)));
        boolean held = reference.remove(k);
        assertThat(c.get(k, BlockKind.DATA) != null).as("block %s held", k).isEqualTo(held);
        if (held) {
          reference.add(k);
        }
      }
    }
    assertThat(c.blockCount()).isEqualTo(reference.size());
    for (BlockKey k : reference) {
      assertThat(c.contains(k)).as("block %s held", k).isTrue();
    }
    assertThat(runs).isGreaterThan(1000);
    assertThat(c.evictionScans()).as("scans of the map for %d runs", runs).isLessThan(runs / 4);
  }

  /**
   * A file's blocks evicted while an eviction run's queues still hold their entries must not stay
   * reachable through those entries until the next scan.
   */
  @Test
  void blocksOfAnEvictedFileAreNotHeldByTheEvictionQueues() {
    LruBlockCache c = new LruBlockCache(100_000);
    for (int i = 0; i < 200; i++) { // past the size: a run scans the map and queues every block
      c.put(new BlockKey(i % 2, i * 100L), block(BlockKind.DATA, 1000, i), false);
    }
    assertThat(c.evictionScans()).isPositive();
    c.evictFile(0);
    c.evictFile(1);
    assertThat(c.blockCount()).isZero();
    assertThat(c.blocksHeldByRemovedQueuedEntries()).isZero();
  }
}
