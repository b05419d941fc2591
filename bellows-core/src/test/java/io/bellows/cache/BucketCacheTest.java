package io.bellows.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The off-heap cache: round trips, size classes, eviction when full, file eviction, accounting back to zero. */
@ExtendWith(SeedExtension.class)
class BucketCacheTest {
  /** This test's seed (one per test; {@link SeedExtension} prints it and takes a fixed one for replay). */
  private Seed seed;

  @BeforeEach
  void takeSeed(Seed seed) {
    this.seed = seed;
  }

  static CachedBlock data(int length, long seed) {
    byte[] p = new byte[length];
    new Random(seed).nextBytes(p);
    return new CachedBlock(BlockKind.DATA, length + 9, p);
  }

  @Test
  void blocksComeBackByteForByteAndTakeASlotOfTheirClass() {
    BucketCache c = new BucketCache(4L * BucketAllocator.BUCKET_SIZE);
    CachedBlock small = data(1000, 1);
    CachedBlock large = data(60_000, 2);
    c.put(new BlockKey(1, 0), small, false);
    c.put(new BlockKey(1, 1000), large, false);
    CachedBlock s = c.get(new BlockKey(1, 0), BlockKind.DATA);
    assertThat(s.payload()).isEqualTo(small.payload());
    assertThat(s.onDiskSize()).isEqualTo(1009);
    assertThat(c.get(new BlockKey(1, 1000), BlockKind.DATA).payload()).isEqualTo(large.payload());
    assertThat(c.usedSlotBytes()).isEqualTo((5 << 10) + (65 << 10));
    assertThat(c.freeBucketCount()).isEqualTo(2);
    assertThat(c.blockBytes()).isEqualTo(61_000);
    c.put(new BlockKey(1, 5), data(300 << 10, 3), false); // larger than the largest class
    assertThat(c.contains(new BlockKey(1, 5))).isFalse();
  }

  @Test
  void aFullCacheEvictsTheLeastRecentlyUsedAndBucketsChangeClass() {
    BucketCache c = new BucketCache(2L * BucketAllocator.BUCKET_SIZE);
    // Fill both buckets with 4 KiB blocks (class 5 KiB: 205 per bucket).
    int n = 2 * (BucketAllocator.BUCKET_SIZE / (5 << 10));
    for (int i = 0; i < n; i++) {
      c.put(new BlockKey(1, i), data(4096, i), false);
    }
    assertThat(c.blockCount()).isEqualTo(n);
    c.get(new BlockKey(1, 0), BlockKind.DATA); // block 0 is now the most recently used
    c.put(new BlockKey(2, 0), data(4096, 99), false);
    assertThat(c.contains(new BlockKey(2, 0))).isTrue();
    assertThat(c.contains(new BlockKey(1, 0))).isTrue();
    assertThat(c.contains(new BlockKey(1, 1))).isFalse();
    // A block of another class needs a whole bucket: enough old blocks go to empty one.
    c.put(new BlockKey(3, 0), data(200_000, 7), false);
    assertThat(c.get(new BlockKey(3, 0), BlockKind.DATA).payload()).isEqualTo(data(200_000, 7).payload());
    assertThat(c.get(new BlockKey(2, 0), BlockKind.DATA).payload()).isEqualTo(data(4096, 99).payload());
    assertThat(c.stats().evictions(BlockKind.DATA)).isGreaterThan(0);
  }

  @Test
  void aBlockReadAgainOutlivesOlderBlocksReadOnce() {
    BucketCache c = new BucketCache(2L * BucketAllocator.BUCKET_SIZE);
    int n = 2 * (BucketAllocator.BUCKET_SIZE / (5 << 10));
    for (int i = 0; i < n; i++) {
      c.put(new BlockKey(1, i), data(4096, i), false);
    }
    c.get(new BlockKey(1, 0), BlockKind.DATA); // the oldest, read again: multi-access
    // Puts of blocks read once push out older blocks read once, however many.
    for (int i = 0; i < n; i++) {
      c.put(new BlockKey(2, i), data(4096, i), false);
    }
    assertThat(c.contains(new BlockKey(1, 0))).isTrue();
    assertThat(c.contains(new BlockKey(1, 1))).isFalse();
  }

  /**
   * L2's eviction against a reference: single- and multi-access areas of a third and two thirds of
   * the capacity, each victim the least recently accessed block of the area further over its share,
   * runs freeing 5%. One size class, so a slot freed is room. The cache's queues must give the same
   * victims as the reference's exact order, with fewer scans of the map than eviction runs.
   */
  @Test
  void evictionRunsTakeTheVictimsAnExactReferenceTakesWithFewerScansThanRuns() {
    Random rnd = seed.random();
    BucketCache c = new BucketCache(2L * BucketAllocator.BUCKET_SIZE);
    int slots = 2 * (BucketAllocator.BUCKET_SIZE / (5 << 10));
    long item = 5 << 10;
    long capacity = c.capacity();
    long wanted = (long) (capacity * BucketCache.FREE_FACTOR);
    // Reference: per area, keys in access order (oldest first).
    List<LinkedHashMap<BlockKey, Boolean>> areas = List.of(new LinkedHashMap<>(), new LinkedHashMap<>());
    int runs = 0;
    int keys = 3 * slots;
    for (int step = 0; step < 20_000; step++) {
      // Skewed keys, so that some blocks are read again while cached and others are not.
      BlockKey k = new BlockKey(1, (long) Math.min(keys - 1, (int) (keys * Math.pow(rnd.nextDouble(), 3))));
      boolean cached = areas.get(0).containsKey(k) || areas.get(1).containsKey(k);
      if (rnd.nextInt(3) == 0) {
        CachedBlock b = c.get(k, BlockKind.DATA);
        assertThat(b != null).as("seed %d step %d: cached %s", seed.value(), step, k).isEqualTo(cached);
        if (cached) {
          areas.get(0).remove(k);
          areas.get(1).remove(k); // re-inserted last: the most recent
          areas.get(1).put(k, true);
        }
        continue;
      }
      if (cached) {
        continue; // a put of a cached block changes nothing
      }
      if (areas.get(0).size() + areas.get(1).size() == slots) {
        runs++;
        long freed = 0;
        while (freed < wanted) {
          long singleOver = (long) (areas.get(0).size() * item - BucketCache.SINGLE_SHARE * capacity);
          long multiOver = (long) (areas.get(1).size() * item - (1 - BucketCache.SINGLE_SHARE) * capacity);
          int area = singleOver >= multiOver ? 0 : 1;
          LinkedHashMap<BlockKey, Boolean> from = areas.get(area).isEmpty() ? areas.get(1 - area) : areas.get(area);
          BlockKey victim = from.keySet().iterator().next();
          from.remove(victim);
          freed += item;
        }
      }
      c.put(k, data(4096, step), false);
      areas.get(0).put(k, true);
      if (step % 97 == 0) {
        List<BlockKey> expected = new ArrayList<>(areas.get(0).keySet());
        expected.addAll(areas.get(1).keySet());
        assertThat(c.blockCount()).as("seed %d step %d", seed.value(), step).isEqualTo(expected.size());
        for (BlockKey e : expected) {
          assertThat(c.contains(e)).as("seed %d step %d: %s", seed.value(), step, e).isTrue();
        }
      }
    }
    assertThat(runs).isGreaterThan(100);
    assertThat(c.scans()).as("seed %d", seed.value()).isLessThan(runs / 2);
  }

  @Test
  void randomPutsGetsAndFileEvictionsMatchAModelAndLeaveNothingBehind() {
    Random rnd = seed.random();
    BucketCache c = new BucketCache(3L * BucketAllocator.BUCKET_SIZE);
    Map<BlockKey, Long> model = new HashMap<>(); // key -> seed of its payload; absent means maybe evicted
    Map<BlockKey, Integer> lengths = new HashMap<>();
    for (int step = 0; step < 5000; step++) {
      int op = rnd.nextInt(10);
      BlockKey k = new BlockKey(rnd.nextInt(8), rnd.nextInt(100) * 1000L);
      if (op < 5) {
        int len = 1 + rnd.nextInt(rnd.nextBoolean() ? 4000 : 100_000);
        long seed = rnd.nextLong();
        if (!c.contains(k)) {
          c.put(k, data(len, seed), false);
          model.put(k, seed);
          lengths.put(k, len);
        }
      } else if (op < 9) {
        CachedBlock b = c.get(k, BlockKind.DATA);
        if (b != null) {
          assertThat(model).as("seed %d step %d", seed.value(), step).containsKey(k);
          assertThat(b.payload()).as("seed %d step %d", seed.value(), step).isEqualTo(data(lengths.get(k), model.get(k)).payload());
        }
      } else {
        long f = k.file();
        c.evictFile(f);
        model.keySet().removeIf(x -> x.file() == f);
        for (int i = 0; i < 100; i++) {
          assertThat(c.contains(new BlockKey(f, i * 1000L))).isFalse();
        }
      }
    }
    for (int f = 0; f < 8; f++) {
      c.evictFile(f);
    }
    assertThat(c.indexedFileCount()).isZero();
    c.evictAll();
    assertThat(c.usedSlotBytes()).isZero();
    assertThat(c.blockBytes()).isZero();
    assertThat(c.blockCount()).isZero();
    assertThat(c.freeBucketCount()).isEqualTo(c.bucketCount());
  }

  @Test
  void theCopiesL2ServesShareTheBlocksRowCountsWithTheCopyItWasGiven() {
    BucketCache c = new BucketCache(2L * BucketAllocator.BUCKET_SIZE);
    CachedBlock victim = data(4096, 1);
    RowAccessCounts counts = victim.accessCounts();
    counts.recordAndTestPromotion(0, 4, () -> 10); // an L1 copy counted a read before L1 let it go
    c.put(new BlockKey(1, 0), victim, false);
    CachedBlock first = c.get(new BlockKey(1, 0), BlockKind.DATA);
    CachedBlock second = c.get(new BlockKey(1, 0), BlockKind.DATA);
    assertThat(first).isNotSameAs(second); // each hit is a heap copy of the payload
    assertThat(first.accessCounts()).isSameAs(counts).isSameAs(second.accessCounts());
    // The eviction-candidate mark stays with the copy it was set on (it orders L1's evictions).
    first.markEvictionCandidate();
    assertThat(second.isEvictionCandidate()).isFalse();
  }

  @Test
  void aBlockNoGetCountedHasNoCountsUntilOneDoesThenEveryCopyOfItSharesTheSlots() {
    BucketCache c = new BucketCache(2L * BucketAllocator.BUCKET_SIZE);
    CachedBlock read = data(4096, 1);
    c.put(new BlockKey(1, 0), read, false);
    assertThat(read.countsIfMade()).as("nothing made for a block put but not counted").isNull();
    CachedBlock first = c.get(new BlockKey(1, 0), BlockKind.DATA);
    CachedBlock inPlace = c.readInPlace(new BlockKey(1, 0), BlockKind.DATA, payload -> payload.limit()).block();
    RowAccessCounts counts = inPlace.accessCounts(); // made in the slot by the first get that counts
    counts.recordAndTestPromotion(0, 4, () -> 10);
    assertThat(first.accessCounts()).isSameAs(counts);
    assertThat(c.get(new BlockKey(1, 0), BlockKind.DATA).accessCounts()).isSameAs(counts);
    // The get that read the block from its file counts after putting it: into the slot's counts too.
    assertThat(read.accessCounts()).isSameAs(counts);
    // The slot freed and given to another block: the old copies keep counting, but not into the new
    // block's counts.
    c.evictFile(1);
    c.put(new BlockKey(2, 0), data(4096, 2), false);
    CachedBlock other = c.get(new BlockKey(2, 0), BlockKind.DATA);
    CachedBlock otherInPlace = c.readInPlace(new BlockKey(2, 0), BlockKind.DATA, payload -> payload.limit()).block();
    RowAccessCounts otherCounts = other.accessCounts();
    assertThat(otherCounts).isSameAs(otherInPlace.accessCounts()).isNotSameAs(counts);
    assertThat(otherCounts.count(0)).isZero();
    assertThat(first.accessCounts()).isSameAs(counts); // kept by the copy that had them
  }

  @Test
  void aCopyServedBeforeItsSlotWasFreedCountsIntoCountsOfItsOwn() {
    BucketCache c = new BucketCache(2L * BucketAllocator.BUCKET_SIZE);
    c.put(new BlockKey(1, 0), data(4096, 1), false);
    CachedBlock served = c.get(new BlockKey(1, 0), BlockKind.DATA); // counts not asked for yet
    c.evictFile(1);
    c.put(new BlockKey(2, 0), data(4096, 2), false); // takes the freed slot
    RowAccessCounts own = served.accessCounts();
    own.recordAndTestPromotion(0, 4, () -> 10);
    RowAccessCounts slots = c.get(new BlockKey(2, 0), BlockKind.DATA).accessCounts();
    assertThat(slots).isNotSameAs(own);
    assertThat(slots.count(0)).as("the new block's counts saw none of the old block's reads").isZero();
  }

  @Test
  void aReadInPlaceSeesTheSlotsBytesAndHandsOutTheBlocksCountsWithoutAPayload() {
    BucketCache c = new BucketCache(2L * BucketAllocator.BUCKET_SIZE);
    CachedBlock block = data(60_000, seed.value());
    RowAccessCounts counts = block.accessCounts();
    c.put(new BlockKey(1, 0), block, false);
    InPlaceRead<byte[]> r = c.readInPlace(new BlockKey(1, 0), BlockKind.DATA, payload -> {
      assertThat(payload.isDirect()).as("read where it lies, off the heap").isTrue();
      byte[] copy = new byte[payload.limit()];
      payload.get(0, copy);
      return copy;
    });
    assertThat(r.value()).as("seed %d", seed.value()).isEqualTo(block.payload());
    assertThat(r.block().hasPayload()).isFalse();
    assertThat(r.block().onDiskSize()).isEqualTo(60_009);
    assertThat(r.block().accessCounts()).isSameAs(counts);
    assertThat(c.stats().hits(BlockKind.DATA)).isEqualTo(1);
    // A miss runs no reader and counts as a miss, as get's does.
    assertThat(c.readInPlace(new BlockKey(1, 1), BlockKind.DATA, payload -> {
      throw new AssertionError("no block to read");
    })).isNull();
    assertThat(c.stats().misses(BlockKind.DATA)).isEqualTo(1);
    // What a read in place hands out has no bytes: it cannot be cached.
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.put(new BlockKey(2, 0), r.block(), false))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aReaderFailingOnTheBytesThemselvesFailsTheReadAndAFreedBlockIsAMiss() {
    BucketCache c = new BucketCache(2L * BucketAllocator.BUCKET_SIZE);
    c.put(new BlockKey(1, 0), data(4096, 1), false);
    // Not a race with a writer: the exception is the reader's own, thrown again under the read lock.
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.readInPlace(new BlockKey(1, 0), BlockKind.DATA,
        payload -> {
          throw new IllegalStateException("cannot decode");
        })).hasMessage("cannot decode");
    c.evictFile(1);
    assertThat(c.readInPlace(new BlockKey(1, 0), BlockKind.DATA, payload -> payload.limit())).isNull();
  }
}
