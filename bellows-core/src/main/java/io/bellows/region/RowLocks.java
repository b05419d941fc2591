package io.bellows.region;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
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
 *
 * <p>With a log that applies records (a replicated region) a writer keeps its rows' locks until its
 * record is applied on the leader, so that the next writer of a row evaluates against it; a batch of
 * plain writes, which reads nothing, may instead release them once its records have their place in
 * the log and leave them {@linkplain #leavePending pending}: the next writer that reads a row first
 * {@linkplain #awaitPending waits} for them.
 */
final class RowLocks {
  private final ReentrantLock[] stripes;
  /**
   * Per stripe, with a log that applies records: the records a writer proposed and left pending when
   * it released the stripe (null: none). Read and written only by the stripe's holder.
   */
  private final CompletableFuture<?>[] pending;

  RowLocks(int stripes) {
    this.stripes = new ReentrantLock[stripes];
    this.pending = new CompletableFuture<?>[stripes];
    for (int i = 0; i < stripes; i++) {
      this.stripes[i] = new ReentrantLock();
    }
  }

  /**
   * By the holder of stripe {@code index}: the stripe's rows have writes in flight until {@code
   * applied} completes (a replicated region's batch that releases its rows before its records are
   * applied, see {@code RowWrites#proposeWindow}).
   */
  void leavePending(int index, CompletableFuture<?> applied) {
    CompletableFuture<?> before = pending[index];
    // Those left before (another batch's) come earlier in the log, but may fail later than these.
    pending[index] = before == null || before.isDone() ? applied : CompletableFuture.allOf(before, applied);
  }

  /**
   * By the holder of stripe {@code index}, before it reads its rows: waits until the writes left in
   * flight on the stripe completed, applied or failed, so what it reads includes every one of them
   * that applies.
   */
  void awaitPending(int index) {
    CompletableFuture<?> f = pending[index];
    if (f != null) {
      f.handle((v, e) -> null).join();
      pending[index] = null;
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
