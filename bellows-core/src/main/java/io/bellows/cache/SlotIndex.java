package io.bellows.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The off-heap cache's map from block key to slot id: an open-addressing table of ints (linear
 * probing) that holds ids only, the keys being in {@link BlockSlots}. One int per entry instead of
 * a map node, key and entry object per block.
 *
 * <p>Lookups take no lock; every change is made under the cache's lock. A removed id leaves a
 * tombstone, so a lookup never stops short of an id that is still there; the table is rebuilt
 * without tombstones (and grown) once live ids and tombstones fill half of it, and the new table is
 * published whole. A lookup can therefore see an id that was removed meanwhile, or miss one put
 * meanwhile (in a table replaced under it): the first the caller's version check turns into a miss,
 * the second is a miss, and a cache may miss.
 */
final class SlotIndex {
  private static final int EMPTY = 0;
  private static final int TOMBSTONE = -1;
  private static final int MIN_CAPACITY = 1024;
  private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);

  /** Entries are id + 1, {@link #EMPTY} or {@link #TOMBSTONE}; replaced whole, never shrunk in place. */
  private volatile int[] table = new int[MIN_CAPACITY];
  private int live; // under the cache's lock
  private int tombstones; // under the cache's lock

  /** The id of the live slot holding the block, or -1; no lock. */
  int find(long file, long offset, BlockSlots slots) {
    int[] t = table;
    int mask = t.length - 1;
    for (int i = hash(file, offset) & mask; ; i = (i + 1) & mask) {
      int v = (int) INTS.getAcquire(t, i);
      if (v == EMPTY) {
        return -1;
      }
      if (v != TOMBSTONE) {
        int id = v - 1;
        if (BlockSlots.live(slots.word(id)) && slots.holds(id, file, offset)) {
          return id;
        }
      }
    }
  }

  /** Adds a published slot whose key is not in the table; under the cache's lock. */
  void add(long file, long offset, int id, BlockSlots slots) {
    if (2 * (live + tombstones + 1) > table.length) {
      rebuild(slots);
    }
    int[] t = table;
    int mask = t.length - 1;
    for (int i = hash(file, offset) & mask; ; i = (i + 1) & mask) {
      int v = t[i];
      if (v == EMPTY || v == TOMBSTONE) {
        if (v == TOMBSTONE) {
          tombstones--;
        }
        INTS.setRelease(t, i, id + 1);
        live++;
        return;
      }
    }
  }

  /** Removes the id, found by its block's key; under the cache's lock. */
  void remove(long file, long offset, int id) {
    int[] t = table;
    int mask = t.length - 1;
    for (int i = hash(file, offset) & mask; ; i = (i + 1) & mask) {
      int v = t[i];
      if (v == EMPTY) {
        throw new IllegalStateException("slot " + id + " is not in the index");
      }
      if (v == id + 1) {
        INTS.setRelease(t, i, TOMBSTONE);
        live--;
        tombstones++;
        return;
      }
    }
  }

  /** Live ids in the table. */
  int size() {
    return live;
  }

  /** A new table with the live ids only, at most a quarter full, published whole. */
  private void rebuild(BlockSlots slots) {
    int capacity = MIN_CAPACITY;
    while (capacity < 4L * (live + 1)) {
      capacity *= 2;
    }
    int[] old = table;
    int[] t = new int[capacity];
    int mask = capacity - 1;
    for (int v : old) {
      if (v != EMPTY && v != TOMBSTONE) {
        int id = v - 1;
        int i = hash(slots.file(id), slots.offset(id)) & mask;
        while (t[i] != EMPTY) {
          i = (i + 1) & mask;
        }
        t[i] = v;
      }
    }
    tombstones = 0;
    table = t; // the volatile write publishes the filled array
  }

  private static int hash(long file, long offset) {
    long h = file * 0x9E3779B97F4A7C15L + offset;
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    return (int) h;
  }
}
