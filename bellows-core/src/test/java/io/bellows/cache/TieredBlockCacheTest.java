package io.bellows.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.config.L1Admission;
import org.junit.jupiter.api.Test;

/** L1 in front of L2: where blocks go on read, eviction and write, and how lookups fall through. */
class TieredBlockCacheTest {
  private static TieredBlockCache tiered(long l1, long l2) {
    return (TieredBlockCache) TieredBlockCache.create(l1, l2);
  }

  @Test
  void dataBlocksEvictedFromL1AreFoundInL2AndComeBackToL1() {
    TieredBlockCache c = tiered(40_000, BucketAllocator.BUCKET_SIZE);
    for (int i = 0; i < 100; i++) {
      c.put(new BlockKey(1, i), BucketCacheTest.data(1000, i), false);
    }
    assertThat(c.l1().size()).isLessThanOrEqualTo(40_000);
    assertThat(c.l2().blockCount()).isGreaterThan(50);
    BlockKey first = new BlockKey(1, 0);
    assertThat(c.l1().contains(first)).isFalse();
    assertThat(c.get(first, BlockKind.DATA).payload()).isEqualTo(BucketCacheTest.data(1000, 0).payload());
    assertThat(c.l1().contains(first)).isTrue(); // read again: back on the heap
    var m = c.metrics();
    assertThat(m.get("cache.l1.data.misses")).isEqualTo(1L);
    assertThat(m.get("cache.l2.data.hits")).isEqualTo(1L);
    assertThat(m.get("cache.l1.data.evictions").longValue()).isGreaterThan(50);
  }

  @Test
  void indexAndBloomBlocksStayOnTheHeap() {
    TieredBlockCache c = tiered(40_000, BucketAllocator.BUCKET_SIZE);
    for (int i = 0; i < 100; i++) {
      c.put(new BlockKey(1, i), LruBlockCacheTest.block(i % 2 == 0 ? BlockKind.INDEX : BlockKind.BLOOM, 1000, i), false);
    }
    assertThat(c.l2().blockCount()).isZero();
    assertThat(c.get(new BlockKey(1, 0), BlockKind.INDEX)).isNull();
    assertThat(c.metrics().get("cache.l2.index.misses")).isEqualTo(0L); // not even looked up
  }

  @Test
  void flushedBlocksGoToL2UnlessInMemoryAndWithoutL1EverythingDataGoesToL2() {
    TieredBlockCache c = tiered(1_000_000, BucketAllocator.BUCKET_SIZE);
    c.putWritten(new BlockKey(1, 0), BucketCacheTest.data(1000, 1), false);
    c.putWritten(new BlockKey(1, 1), BucketCacheTest.data(1000, 2), true);
    assertThat(c.l2().contains(new BlockKey(1, 0))).isTrue();
    assertThat(c.l1().contains(new BlockKey(1, 0))).isFalse();
    assertThat(c.l1().areaOf(new BlockKey(1, 1))).isEqualTo(CacheArea.MEMORY);

    TieredBlockCache l2only = tiered(0, BucketAllocator.BUCKET_SIZE);
    assertThat(l2only.l1()).isNull();
    l2only.put(new BlockKey(1, 0), BucketCacheTest.data(1000, 1), false);
    assertThat(l2only.get(new BlockKey(1, 0), BlockKind.DATA)).isNotNull();
    assertThat(TieredBlockCache.create(0, 0)).isSameAs(BlockCache.NONE);
  }

  @Test
  void aClosedFileLeavesBothLevels() {
    TieredBlockCache c = tiered(40_000, BucketAllocator.BUCKET_SIZE);
    for (int f = 1; f <= 2; f++) {
      for (int i = 0; i < 100; i++) {
        c.put(new BlockKey(f, i), BucketCacheTest.data(1000, i), false);
      }
    }
    c.evictFile(1);
    for (int i = 0; i < 100; i++) {
      assertThat(c.get(new BlockKey(1, i), BlockKind.DATA)).isNull();
    }
    c.evictFile(2);
    assertThat(c.l1().size()).isZero();
    assertThat(c.l2().usedSlotBytes()).isZero();
    assertThat(c.l2().freeBucketCount()).isEqualTo(c.l2().bucketCount());
    assertThat(c.metrics().get("cache.l1.data.bytes")).isEqualTo(0L);
    assertThat(c.metrics().get("cache.l2.data.bytes")).isEqualTo(0L);
  }

  @Test
  void withReadAgainAdmissionL1TakesABlockOnItsSecondMissAndInMemoryBlocksAtOnce() {
    TieredBlockCache c = (TieredBlockCache) TieredBlockCache.create(1_000_000, 0, L1Admission.READ_AGAIN);
    BlockKey k = new BlockKey(1, 0);
    c.put(k, BucketCacheTest.data(1000, 1), false);
    assertThat(c.l1().contains(k)).as("read once: not cached").isFalse();
    c.put(k, BucketCacheTest.data(1000, 1), false);
    assertThat(c.l1().contains(k)).as("read again: cached").isTrue();
    BlockKey m = new BlockKey(1, 1000);
    c.put(m, BucketCacheTest.data(1000, 2), true);
    assertThat(c.l1().areaOf(m)).as("IN_MEMORY families' blocks are always taken").isEqualTo(CacheArea.MEMORY);
    assertThat(c.metrics().get("cache.l1.not.admitted")).isEqualTo(1L);
    TieredBlockCache all = tiered(1_000_000, 0);
    all.put(k, BucketCacheTest.data(1000, 1), false);
    assertThat(all.l1().contains(k)).as("ALL: cached on the first read").isTrue();
  }

  /**
   * With admission NONE, data blocks live in L2 only and a get reads them there in place; L1 keeps
   * its budget (the KV cache's) and takes only IN_MEMORY families' blocks, which are read on the heap.
   */
  @Test
  void withNoDataAdmissionDataBlocksLiveInL2AndAreReadWhereTheyLie() {
    TieredBlockCache c = (TieredBlockCache) TieredBlockCache.create(1_000_000, BucketAllocator.BUCKET_SIZE,
        L1Admission.NONE);
    BlockKey data = new BlockKey(1, 0);
    BlockKey hot = new BlockKey(1, 1);
    c.put(data, BucketCacheTest.data(1000, 1), false);
    c.put(hot, BucketCacheTest.data(1000, 2), true);
    assertThat(c.l1().contains(data)).isFalse();
    assertThat(c.l2().contains(data)).isTrue();
    assertThat(c.l1().areaOf(hot)).isEqualTo(CacheArea.MEMORY);

    InPlaceRead<Integer> r = c.readInPlace(data, BlockKind.DATA, payload -> (int) payload.get(0));
    assertThat(r.value()).isEqualTo((int) BucketCacheTest.data(1000, 1).payload()[0]);
    assertThat(r.block().hasPayload()).as("read in L2's memory, not copied").isFalse();
    assertThat(c.get(data, BlockKind.DATA).payload()).isEqualTo(BucketCacheTest.data(1000, 1).payload());
    assertThat(c.l1().contains(data)).as("an L2 hit does not come back to L1").isFalse();
    InPlaceRead<Integer> inMemory = c.readInPlace(hot, BlockKind.DATA, payload -> (int) payload.get(0));
    assertThat(inMemory.block().hasPayload()).isTrue();
    assertThat(c.metrics().get("cache.l1.not.admitted")).isEqualTo(0L);
  }
}
