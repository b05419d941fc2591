package io.bellows.cache;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Remembers the keys of recently missed blocks, so that L1 takes in a block only on a miss that
 * finds it remembered: read twice within the window, which is about as many misses as the filter
 * has slots. A direct-mapped table of 64-bit key hashes (a "doorkeeper", as in TinyLFU): a slot
 * holds the last key hashed to it, so a key is forgotten when another takes its slot.
 *
 * <p>Why: on gets spread over far more blocks than L1 holds (uniform keys), almost every get missed
 * and cached a 64 KiB block that was evicted, unread, about half a second later. Young collections
 * copied those blocks, which took 11–13% of the time while writes ran (BENCHMARKS.md). Hot blocks
 * are read again soon and are cached on their second read.
 *
 * <p>Thread-safe and lock-free; two threads racing on one slot may each see the other's key or
 * their own, which changes at most whether one block is cached now or on its next miss.
 */
final class ReadAgainFilter {
  /** Slots per block L1 holds (of 64 KiB): the window is about twice the cache's turnover. */
  static final int SLOTS_PER_CACHED_BLOCK = 2;
  static final int MIN_SLOTS = 1 << 10;
  static final int MAX_SLOTS = 1 << 22;

  private final AtomicLongArray slots;
  private final int mask;

  /** A filter sized for an L1 of {@code cacheBytes}. */
  static ReadAgainFilter forCache(long cacheBytes) {
    long want = SLOTS_PER_CACHED_BLOCK * Math.max(1, cacheBytes / (64 * 1024));
    int n = Integer.highestOneBit((int) Math.min(MAX_SLOTS, Math.max(MIN_SLOTS, want)));
    return new ReadAgainFilter(n);
  }

  ReadAgainFilter(int slots) {
    if (Integer.bitCount(slots) != 1) {
      throw new IllegalArgumentException("slots must be a power of two: " + slots);
    }
    this.slots = new AtomicLongArray(slots);
    this.mask = slots - 1;
  }

  /**
   * A miss of {@code key}: true if it was remembered (the caller caches the block; the key is
   * forgotten, so a block evicted later needs two reads again), false after remembering it.
   */
  boolean missedAgain(BlockKey key) {
    long h = hash(key);
    int i = (int) (h >>> 40) & mask;
    if (slots.getPlain(i) == h) {
      slots.setPlain(i, 0);
      return true;
    }
    slots.setPlain(i, h);
    return false;
  }

  int slotCount() {
    return mask + 1;
  }

  /** A 64-bit mix of the key, never 0 (0 marks an empty slot). */
  static long hash(BlockKey key) {
    long h = key.file() * 0x9E3779B97F4A7C15L + key.offset();
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    h ^= h >>> 33;
    return h == 0 ? 1 : h;
  }
}
