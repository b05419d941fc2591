package io.bellows.region;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.config.Durability;
import io.bellows.config.Knobs;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.StorageException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Plain writes of a region, one row or a batch: validation, back-pressure, the row locks and the
 * split of a batch into mini-batches, each then one pass of {@link WriteSteps}.
 *
 * <p>Loops over the cells or rows of a batch live in small methods of their own: a loop of hundreds
 * of iterations in a big method gets that method compiled on stack (OSR) as well as normally, and
 * on two cores each C2 compilation of the write path costs about a second of CPU while a cold
 * engine warms up.
 */
final class RowWrites {
  /**
   * Most rows in one mini-batch: bounds how many row locks (stripes) one writer holds while it
   * evaluates, logs and inserts, so single-row writers are not shut out for long.
   */
  static final int MINI_BATCH_MAX_ROWS = 1000;
  /**
   * Most bytes of cells (as the WAL encodes them, 4 + cell length each) in one mini-batch, so one WAL
   * record stays bounded (far below the WAL's record limit and its 8 MiB write-out threshold). A
   * single row larger than this is a mini-batch of its own, as a single-row mutation would be.
   */
  static final long MINI_BATCH_MAX_BYTES = 4L * 1024 * 1024;

  private final Region region;
  private final RowLocks rowLocks;
  private final WriteSteps steps;
  private final WriteBlocking blocking;

  RowWrites(Region region, RowLocks rowLocks, WriteSteps steps, WriteBlocking blocking) {
    this.region = region;
    this.rowLocks = rowLocks;
    this.steps = steps;
    this.blocking = blocking;
  }

  /** The row locks every write of the region takes (an atomic row operation takes them too). */
  RowLocks rowLocks() {
    return rowLocks;
  }

  /** See {@link Region#mutate}. */
  void mutate(byte[] row, List<Cell> cells, long wholeRowDeleteTs, Durability durability) {
    List<Cell> expanded = expandWholeRowDelete(row, cells, wholeRowDeleteTs);
    validate(row, expanded);
    blocking.waitIfBlocked(expanded);
    ReentrantLock lock = rowLocks.lockFor(row);
    WriteSteps.Logged logged;
    lock.lock();
    try {
      awaitPending(row); // it may read the row, or name its call: a batch's writes to it apply first
      logged = steps.logAndInsert(List.of(new Region.RowWrite(row, expanded, -1, durability)), steps.beginEvaluation());
    } finally {
      lock.unlock();
    }
    steps.finish(logged); // durable and visible; the row's next writer need not wait for this
    blocking.afterWrite(expanded);
  }

  /**
   * With a log that applies records, by the holder of the row's lock before it evaluates: waits for
   * the writes to the row's stripe that a batch left in flight ({@link RowLocks#awaitPending}).
   */
  void awaitPending(byte[] row) {
    if (steps.logApplies()) {
      rowLocks.awaitPending(rowLocks.stripeOf(row));
    }
  }

  /** See {@link Region#mutateBatch}. */
  void mutateBatch(List<Region.RowWrite> rows) {
    List<Region.RowWrite> checked = checked(rows);
    boolean pipelined = steps.logApplies();
    int start = 0;
    while (start < checked.size()) {
      int end = pipelined ? windowEnd(checked, start) : miniBatchEnd(checked, start);
      try {
        if (pipelined) {
          proposeWindow(checked.subList(start, end));
        } else {
          applyMiniBatch(checked.subList(start, end));
        }
      } catch (RegionClosedException e) {
        if (start + e.rowsApplied() == 0) {
          throw e;
        }
        // The rows before this mini-batch were applied: the engine re-routes only the rest.
        throw new RegionClosedException(e.getMessage(), start + e.rowsApplied());
      }
      start = end;
    }
  }

  /** The rows with whole-row deletes expanded, each validated: throws before anything is applied. */
  private List<Region.RowWrite> checked(List<Region.RowWrite> rows) {
    List<Region.RowWrite> checked = new ArrayList<>(rows.size());
    for (Region.RowWrite w : rows) {
      List<Cell> expanded = expandWholeRowDelete(w.row(), w.cells(), w.wholeRowDeleteTs());
      validate(w.row(), expanded);
      checked.add(new Region.RowWrite(w.row(), expanded, -1, w.durability()));
    }
    return checked;
  }

  /** The end (exclusive) of the mini-batch that starts at {@code start}; it holds at least one row. */
  private static int miniBatchEnd(List<Region.RowWrite> rows, int start) {
    java.util.TreeSet<byte[]> seen = new java.util.TreeSet<>(Bytes::compare);
    long bytes = 0;
    int i = start;
    for (; i < rows.size(); i++) {
      Region.RowWrite w = rows.get(i);
      long rowBytes = 0;
      for (Cell c : w.cells()) {
        rowBytes += 4L + c.length();
      }
      if (i > start && (i - start >= MINI_BATCH_MAX_ROWS || bytes + rowBytes > MINI_BATCH_MAX_BYTES
          || seen.contains(w.row()))) {
        break;
      }
      seen.add(w.row());
      bytes += rowBytes;
    }
    return i;
  }

  /** One mini-batch of distinct rows: back-pressure, locks in stripe order, the write steps, unlock. */
  private void applyMiniBatch(List<Region.RowWrite> rows) {
    List<Cell> all = cellsOf(rows);
    blocking.waitIfBlocked(all);
    int[] stripes = stripesOf(rows);
    int[] locked = {0};
    WriteSteps.Logged logged;
    try {
      lockStripes(stripes, locked);
      logged = steps.logAndInsert(rows, steps.beginEvaluation());
    } finally {
      unlockStripes(stripes, locked[0]);
    }
    steps.finish(logged);
    blocking.afterWrite(all);
  }

  /**
   * With a log that applies records: the end (exclusive) of the window of consecutive mini-batches
   * that starts at {@code start}, proposed together ({@link #proposeWindow}); its rows and bytes
   * bounded as one mini-batch's are, so a writer holds no more row locks than a mini-batch takes.
   * It holds at least one mini-batch.
   */
  private static int windowEnd(List<Region.RowWrite> rows, int start) {
    int end = miniBatchEnd(rows, start);
    long bytes = bytesOf(rows, start, end);
    while (end < rows.size()) {
      int next = miniBatchEnd(rows, end);
      long more = bytesOf(rows, end, next);
      if (next - start > MINI_BATCH_MAX_ROWS || bytes + more > MINI_BATCH_MAX_BYTES) {
        break;
      }
      bytes += more;
      end = next;
    }
    return end;
  }

  private static long bytesOf(List<Region.RowWrite> rows, int from, int to) {
    long bytes = 0;
    for (Region.RowWrite w : rows.subList(from, to)) {
      for (Cell c : w.cells()) {
        bytes += 4L + c.length();
      }
    }
    return bytes;
  }

  /**
   * A window of mini-batches with a log that applies records (a replicated region): the locks of
   * every row of the window, then each mini-batch evaluated and proposed without waiting for the
   * ones before it to commit. Each mini-batch is still one record, so a row written twice is written
   * in batch order (the log applies one thread's proposals in the order it made them); what the
   * waits per mini-batch cost before was one round of the log's replication each. A mini-batch
   * whose evaluation reads the region (a delete of a latest version) waits for the proposals before
   * it, and a window holding one first waits for what other batches left in flight on its rows.
   *
   * <p>Then the locks are released before the wait for the apply, the records left {@linkplain
   * RowLocks#leavePending pending} on the rows' stripes: plain writes read nothing, the next writer
   * of a row that reads it (an atomic operation, a single-row write, a delete of a latest version)
   * waits for them first, and the next plain writer's records follow these in the log. So the
   * batches of several writers share the log's rounds (syncs, appends to the followers) rather than
   * taking turns on their hot rows, one round each. Returns once every proposal completed, throwing
   * the first failure in batch order; as the log applies one term's records in order and none of a
   * later term, the mini-batches before it applied.
   */
  private void proposeWindow(List<Region.RowWrite> rows) {
    List<Cell> all = cellsOf(rows);
    blocking.waitIfBlocked(all);
    int[] stripes = stripesOf(rows);
    int[] locked = {0};
    List<CompletableFuture<Void>> pending = new ArrayList<>();
    List<Integer> ends = new ArrayList<>();
    RuntimeException failure = null;
    int start = 0;
    try {
      lockStripes(stripes, locked);
      if (WriteSteps.readsRegion(rows)) {
        for (int i = 0; i < locked[0]; i++) {
          rowLocks.awaitPending(stripes[i]);
        }
      }
      long epoch = steps.beginEvaluation();
      while (start < rows.size()) {
        int end = miniBatchEnd(rows, start);
        List<Region.RowWrite> miniBatch = rows.subList(start, end);
        if (WriteSteps.readsRegion(miniBatch) && firstFailure(pending, ends, false) != null) {
          break;
        }
        pending.add(steps.proposeAsync(miniBatch, epoch));
        ends.add(end);
        start = end;
      }
    } catch (RegionClosedException e) {
      failure = start == 0 ? e : new RegionClosedException(e.getMessage(), start);
    } catch (RuntimeException e) {
      failure = e;
    } finally {
      if (!pending.isEmpty()) {
        CompletableFuture<Void> applied = CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new));
        for (int i = 0; i < locked[0]; i++) {
          rowLocks.leavePending(stripes[i], applied);
        }
      }
      unlockStripes(stripes, locked[0]);
    }
    RuntimeException first = firstFailure(pending, ends, true);
    if (first != null) {
      throw first; // the earlier one in batch order
    }
    if (failure != null) {
      throw failure;
    }
    blocking.afterWrite(all);
  }

  /**
   * Waits for every pending proposal (all of them if {@code all}, else up to the first failure);
   * returns the first failure in batch order, or null. A region closed after some mini-batches
   * applied says how many rows did.
   */
  private static RuntimeException firstFailure(List<CompletableFuture<Void>> pending, List<Integer> ends,
      boolean all) {
    RuntimeException first = null;
    for (int i = 0; i < pending.size(); i++) {
      try {
        pending.get(i).join();
      } catch (CompletionException e) {
        if (first == null) {
          RuntimeException cause = e.getCause() instanceof RuntimeException r ? r
              : new StorageException("a write to the region failed", e.getCause());
          first = cause instanceof RegionClosedException && i > 0
              ? new RegionClosedException(cause.getMessage(), ends.get(i - 1)) : cause;
          if (!all) {
            return first;
          }
        }
      }
    }
    return first;
  }

  private static List<Cell> cellsOf(List<Region.RowWrite> rows) {
    List<Cell> all = new ArrayList<>();
    for (Region.RowWrite w : rows) {
      all.addAll(w.cells());
    }
    return all;
  }

  /** The row-lock stripes of the rows, sorted (the order every writer locks them in). */
  private int[] stripesOf(List<Region.RowWrite> rows) {
    int[] stripes = new int[rows.size()];
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = rowLocks.stripeOf(rows.get(i).row());
    }
    java.util.Arrays.sort(stripes);
    return stripes;
  }

  /** Locks each distinct stripe once; {@code locked[0]} says how far it got, for the unlock. */
  private void lockStripes(int[] stripes, int[] locked) {
    for (int i = 0; i < stripes.length; i++) {
      if (i == 0 || stripes[i] != stripes[i - 1]) { // rows sharing a stripe: lock it once
        rowLocks.stripe(stripes[i]).lock();
        locked[0] = i + 1;
      }
    }
  }

  private void unlockStripes(int[] stripes, int locked) {
    for (int i = locked - 1; i >= 0; i--) {
      if (i == 0 || stripes[i] != stripes[i - 1]) {
        rowLocks.stripe(stripes[i]).unlock();
      }
    }
  }

  /** A whole-row delete as one DELETE_FAMILY cell per family; other cells as they are. */
  List<Cell> expandWholeRowDelete(byte[] row, List<Cell> cells, long wholeRowDeleteTs) {
    if (wholeRowDeleteTs < 0) {
      return cells;
    }
    List<Cell> out = new ArrayList<>();
    for (ColumnFamilyDescriptor f : region.descriptor().families()) {
      out.add(Cells.create(row, f.nameBytes(), Bytes.EMPTY, wholeRowDeleteTs, CellType.DELETE_FAMILY, Bytes.EMPTY));
    }
    return out;
  }

  /**
   * Checks a mutation without applying it (families exist, value sizes, one row); throws
   * IllegalArgumentException or NoSuchColumnFamilyException.
   */
  void validate(byte[] row, List<Cell> cells) {
    long maxValue = region.settings().maxValueSize();
    for (Cell c : cells) {
      region.storeOf(c);
      if (c.valueLength() > maxValue) {
        throw new IllegalArgumentException("value of " + c.valueLength() + " bytes exceeds "
            + Knobs.MAX_VALUE_SIZE.name() + " = " + maxValue);
      }
      if (Bytes.compare(c.array(), c.rowOffset(), c.rowLength(), row, 0, row.length) != 0) {
        throw new IllegalArgumentException("all cells of a mutation must be of its row");
      }
    }
  }
}
