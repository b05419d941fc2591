package io.bellows.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Many threads get and put blocks of a small two-level cache while files are closed and replaced by
 * new ones, as readers, flushes and compactions do. Every payload is derived from its key and file
 * generation, so a block served for the wrong key or after its file was closed shows as a mismatch.
 * A file is closed the way the engine does it: once no reader holds it (its write lock here), then
 * its blocks are evicted; after that nothing of it may be found. At the end every file is closed
 * and both levels must be empty, the off-heap one down to zero used slots.
 */
@ExtendWith(SeedExtension.class)
class BlockCacheConcurrencyTest {
  /** This test's seed (one per test; {@link SeedExtension} prints it and takes a fixed one for replay). */
  private Seed seed;

  @BeforeEach
  void takeSeed(Seed seed) {
    this.seed = seed;
  }
  private static final int THREADS = 6;
  private static final int OPS = 10_000;
  private static final int SLOTS = 8; // live files at a time
  private static final int BLOCKS_PER_FILE = 40;

  /** A live file: its number and the lock readers hold while they use it. */
  private record LiveFile(long number, ReentrantReadWriteLock lock) {}

  @Test
  void noBlockOfAClosedFileIsServedAndNothingIsLeftBehind() throws Exception {
    TieredBlockCache cache = (TieredBlockCache) TieredBlockCache.create(200_000, 2L * BucketAllocator.BUCKET_SIZE);
    stress(cache, false);
    assertThat(cache.metrics().get("cache.l1.evictions").longValue()).isGreaterThan(0);
    closeEveryFile(cache);
    assertThat(cache.l1().size()).isZero();
    assertThat(cache.l1().blockCount()).isZero();
    assertThat(cache.l1().indexedFileCount()).isZero();
    assertL2Empty(cache.l2());
  }

  /**
   * Without an L1, gets read L2's slots where they lie, optimistically, while other threads free
   * and reuse those slots (two buckets, so a put evicts often): every read must return the bytes of
   * its own key's block, never a mix with another block's.
   */
  @Test
  void readsInPlaceOfL2NeverSeeAnotherBlocksBytes() throws Exception {
    TieredBlockCache cache = (TieredBlockCache) TieredBlockCache.create(0, 2L * BucketAllocator.BUCKET_SIZE);
    stress(cache, true);
    assertThat(cache.metrics().get("cache.l2.evictions").longValue()).as("seed %d", seed.value()).isGreaterThan(0);
    assertThat(cache.metrics().get("cache.l2.hits").longValue()).as("seed %d", seed.value()).isGreaterThan(0);
    closeEveryFile(cache);
    assertL2Empty(cache.l2());
  }

  private AtomicReferenceArray<LiveFile> files;

  private void stress(TieredBlockCache cache, boolean inPlace) throws Exception {
    files = new AtomicReferenceArray<>(SLOTS);
    java.util.concurrent.atomic.AtomicLong nextFile = new java.util.concurrent.atomic.AtomicLong(1);
    for (int i = 0; i < SLOTS; i++) {
      files.set(i, new LiveFile(nextFile.getAndIncrement(), new ReentrantReadWriteLock()));
    }
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Random rnd = seed.random(t);
      boolean replacer = t == 0;
      threads.add(new Thread(() -> {
        try {
          for (int op = 0; op < OPS && failure.get() == null; op++) {
            int slot = rnd.nextInt(SLOTS);
            if (replacer && op % 50 == 0) {
              replace(cache, files, slot, nextFile.getAndIncrement());
            } else {
              read(cache, files.get(slot), rnd.nextInt(BLOCKS_PER_FILE), rnd, inPlace);
            }
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "cache-stress-" + t));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    assertThat(failure.get()).as("seed %d", seed.value()).isNull();
  }

  private void closeEveryFile(TieredBlockCache cache) {
    for (int i = 0; i < SLOTS; i++) {
      LiveFile f = files.get(i);
      f.lock().writeLock().lock();
      cache.evictFile(f.number());
    }
  }

  private static void assertL2Empty(BucketCache l2) {
    assertThat(l2.blockCount()).isZero();
    assertThat(l2.usedSlotBytes()).isZero();
    assertThat(l2.freeBucketCount()).isEqualTo(l2.bucketCount());
  }

  /** A read of one block: a cache lookup, the "file" on a miss, then a put; all under the file's read lock. */
  private static void read(TieredBlockCache cache, LiveFile f, int block, Random rnd, boolean inPlace) {
    if (!f.lock().readLock().tryLock()) {
      return; // being closed: a reader that finds the file gone goes elsewhere
    }
    try {
      BlockKey k = new BlockKey(f.number(), block * 10_000L);
      CachedBlock expected = payloadOf(k);
      byte[] found;
      int onDiskSize;
      if (inPlace) {
        InPlaceRead<byte[]> r = cache.readInPlace(k, BlockKind.DATA, payload -> {
          byte[] copy = new byte[payload.limit()];
          payload.get(0, copy);
          return copy;
        });
        found = r == null ? null : r.value();
        onDiskSize = r == null ? 0 : r.block().onDiskSize();
      } else {
        CachedBlock b = cache.get(k, BlockKind.DATA);
        found = b == null ? null : b.payload();
        onDiskSize = b == null ? 0 : b.onDiskSize();
      }
      if (found == null) {
        cache.put(k, expected, rnd.nextInt(8) == 0);
      } else if (!java.util.Arrays.equals(found, expected.payload()) || onDiskSize != expected.onDiskSize()) {
        throw new AssertionError("wrong block for " + k);
      }
    } finally {
      f.lock().readLock().unlock();
    }
  }

  /** Closes the file in a slot (once no reader holds it), evicts its blocks, checks none is left, opens a new one. */
  private static void replace(TieredBlockCache cache, AtomicReferenceArray<LiveFile> files, int slot, long number) {
    LiveFile old = files.get(slot);
    files.set(slot, new LiveFile(number, new ReentrantReadWriteLock()));
    old.lock().writeLock().lock(); // never released: the file is gone
    cache.evictFile(old.number());
    for (int i = 0; i < BLOCKS_PER_FILE; i++) {
      BlockKey k = new BlockKey(old.number(), i * 10_000L);
      if ((cache.l1() != null && cache.l1().contains(k)) || cache.l2().contains(k)) {
        throw new AssertionError("block " + k + " of a closed file is still cached");
      }
    }
  }

  /** The payload of a key: its length and bytes depend on the file and offset only. */
  static CachedBlock payloadOf(BlockKey k) {
    Random r = new Random(k.file() * 1_000_003L + k.offset());
    int len = 500 + r.nextInt(r.nextInt(4) == 0 ? 60_000 : 4000);
    byte[] p = new byte[len];
    r.nextBytes(p);
    return new CachedBlock(BlockKind.DATA, len + 9, p);
  }
}
