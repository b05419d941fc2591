package io.bellows.region;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Exclusive locks on rows, striped: a row maps to one of a fixed set of locks by hash. A mutation
 * holds its row's lock from its read (check-and-put, increment) through its WAL append and memory
 * store insert, so read-modify-write operations on one row are atomic; it releases the lock before
 * it waits for the WAL sync and MVCC completion (early lock release: the row's next writer reads
 * this write's cells and is published after it, see {@code WriteSteps#logAndInsert}).
 *
 * <p>Deadlock freedom: a single-row operation holds one stripe. A mini-batch holds the stripes of
 * all its rows, taken in increasing stripe index (each once) — the one global order. Row-key order
 * would not do: two rows can share a stripe, so two batches locking rows in key order could take
 * the same two stripes in opposite orders.
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
    return stripes[stripeOf(row)];
  }

  /** The index of the row's stripe; stripes are locked in increasing index when several are held. */
  int stripeOf(byte[] row) {
    int h = Arrays.hashCode(row);
    h ^= (h >>> 16);
    return Math.floorMod(h, stripes.length);
  }

  ReentrantLock stripe(int index) {
    return stripes[index];
  }
}
