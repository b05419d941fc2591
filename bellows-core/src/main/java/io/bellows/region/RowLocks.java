package io.bellows.region;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Exclusive locks on rows, striped: a row maps to one of a fixed set of locks by hash. A mutation
 * holds its row's lock from its read (check-and-put, increment) through WAL sync and MVCC completion,
 * so read-modify-write operations on one row are atomic. A thread holds at most one row lock at a
 * time, so striping cannot deadlock.
 */
final class RowLocks {
  private final ReentrantLock[] stripes;

  RowLocks(int stripes) {
    this.stripes = new ReentrantLock[stripes];
    for (int i = 0; i < stripes; i++) {
      this.stripes[i] = new ReentrantLock();
    }
  }

  ReentrantLock lockFor(byte[] row) {
    int h = Arrays.hashCode(row);
    h ^= (h >>> 16);
    return stripes[Math.floorMod(h, stripes.length)];
  }
}
