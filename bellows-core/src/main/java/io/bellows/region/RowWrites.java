package io.bellows.region;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.config.Durability;
import io.bellows.config.Knobs;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
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
      logged = steps.logAndInsert(List.of(new Region.RowWrite(row, expanded, -1, durability)), steps.beginEvaluation());
    } finally {
      lock.unlock();
    }
    steps.finish(logged); // durable and visible; the row's next writer need not wait for this
    blocking.afterWrite(expanded);
  }

  /** See {@link Region#mutateBatch}. */
  void mutateBatch(List<Region.RowWrite> rows) {
    List<Region.RowWrite> checked = checked(rows);
    int start = 0;
    while (start < checked.size()) {
      int end = miniBatchEnd(checked, start);
      try {
        applyMiniBatch(checked.subList(start, end));
      } catch (RegionClosedException e) {
        if (start == 0) {
          throw e;
        }
        // The rows before this mini-batch were applied: the engine re-routes only the rest.
        throw new RegionClosedException(e.getMessage(), start);
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
