package io.bellows.region;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Condition;
import io.bellows.atomic.Outcome;
import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.config.Durability;
import io.bellows.scan.ScanQuery;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A region's atomic row operations (check-and-mutate, increment, append, row mutations): under the
 * row lock the condition is decided and the updated columns are read and computed, so that what
 * reaches {@link WriteSteps} is already resolved, a write like any other.
 */
final class AtomicRowWrite {
  private final Region region;
  private final RowLocks rowLocks;
  private final RowWrites rowWrites;
  private final WriteSteps steps;
  private final WriteBlocking blocking;

  AtomicRowWrite(Region region, RowLocks rowLocks, RowWrites rowWrites, WriteSteps steps, WriteBlocking blocking) {
    this.region = region;
    this.rowLocks = rowLocks;
    this.rowWrites = rowWrites;
    this.steps = steps;
    this.blocking = blocking;
  }

  /** See {@link Region#mutateRow}. */
  Outcome mutateRow(byte[] row, Condition condition, List<Cell> cells, long wholeRowDeleteTs,
      List<ColumnUpdate> updates, Durability durability, boolean returnValues) {
    if (condition != null && !condition.isFilter()) {
      region.store(condition.family());
    }
    List<Cell> expanded = rowWrites.expandWholeRowDelete(row, cells, wholeRowDeleteTs);
    rowWrites.validate(row, expanded);
    checkUpdates(updates, expanded);
    List<Cell> probe = new ArrayList<>(expanded);
    for (ColumnUpdate u : updates) {
      probe.add(Cells.put(row, u.family(), u.qualifier(), 0, new byte[8]));
    }
    blocking.waitIfBlocked(probe);
    ReentrantLock lock = rowLocks.lockFor(row);
    List<Cell> written;
    List<Cell> values;
    WriteSteps.Logged logged;
    lock.lock();
    try {
      region.checkOpen(); // a split closed the region while this waited: nothing read, nothing written
      rowWrites.awaitPending(row); // a replicated batch's writes to the row apply before the reads
      long epoch = steps.beginEvaluation(); // before the reads the condition and the updates make
      if (condition != null && !condition.holds(readFor(row, condition))) {
        logged = null;
        written = null;
        values = null;
      } else {
        values = newValues(row, updates);
        rowWrites.validate(row, values);
        if (values.isEmpty()) {
          written = expanded;
        } else {
          written = new ArrayList<>(expanded);
          written.addAll(values);
        }
        logged = steps.logAndInsert(List.of(new Region.RowWrite(row, written, -1, durability)), epoch);
      }
    } finally {
      lock.unlock();
    }
    if (logged == null) {
      // The condition read the row as its earlier writers left it, visible or not yet (they release
      // the lock before their sync): answer only once what it read is visible.
      steps.awaitReadVisible();
      return Outcome.NOT_APPLIED;
    }
    // The next operation on the row may read these cells now (under the lock, at read point
    // Long.MAX_VALUE); it is acknowledged only after this one (WriteSteps.logAndInsert).
    steps.finish(logged);
    blocking.afterWrite(written);
    if (!returnValues) {
      return new Outcome(true, List.of());
    }
    List<Cell> sorted = new ArrayList<>(values);
    sorted.sort(io.bellows.cell.CellComparator.INSTANCE);
    return new Outcome(true, sorted);
  }

  /**
   * Refuses updates that would leave the result undefined: one column updated twice, or updated and
   * also written or deleted by the same operation (its cells would share a sequence id, and a
   * tombstone at the same timestamp would hide the new value).
   */
  private void checkUpdates(List<ColumnUpdate> updates, List<Cell> cells) {
    for (int i = 0; i < updates.size(); i++) {
      ColumnUpdate u = updates.get(i);
      region.store(u.family());
      for (int j = 0; j < i; j++) {
        if (u.sameColumn(updates.get(j))) {
          throw new IllegalArgumentException("column " + u.column() + " is updated twice in one operation");
        }
      }
      for (Cell c : cells) {
        boolean familyDelete = c.type() == CellType.DELETE_FAMILY && Bytes.equals(c.array(), c.familyOffset(),
            c.familyLength(), u.family(), 0, u.family().length);
        if (familyDelete || u.sameColumn(c)) {
          throw new IllegalArgumentException("column " + u.column() + " is both updated and "
              + (familyDelete ? "deleted with its family" : "written or deleted") + " in one operation");
        }
      }
    }
  }

  /** What the condition reads: its column's newest version in its time range, or the filtered row. */
  private List<Cell> readFor(byte[] row, Condition condition) {
    ScanQuery.Builder q = ScanQuery.builder().singleRow(row).readPoint(Long.MAX_VALUE)
        .timeRange(condition.minTimestamp(), condition.maxTimestamp());
    if (condition.isFilter()) {
      q.filter(condition.filter());
    } else {
      q.addColumn(condition.family(), condition.qualifier());
    }
    return region.reads().readLatest(q.build());
  }

  /**
   * The cells the updates write: each from its column's newest value (in the update's time range),
   * stamped {@code max(now, that value's timestamp)}.
   */
  private List<Cell> newValues(byte[] row, List<ColumnUpdate> updates) {
    if (updates.isEmpty()) {
      return List.of();
    }
    Cell[] current = new Cell[updates.size()];
    // One read per distinct time range, of all its columns at once (an Increment's or an Append's
    // columns share one range, so a counter row of N columns is one read, not N).
    boolean[] read = new boolean[updates.size()];
    for (int i = 0; i < updates.size(); i++) {
      if (read[i]) {
        continue;
      }
      ColumnUpdate first = updates.get(i);
      ScanQuery.Builder q = ScanQuery.builder().singleRow(row).readPoint(Long.MAX_VALUE)
          .timeRange(first.minTimestamp(), first.maxTimestamp());
      List<Integer> group = new ArrayList<>();
      for (int j = i; j < updates.size(); j++) {
        ColumnUpdate u = updates.get(j);
        if (!read[j] && u.minTimestamp() == first.minTimestamp() && u.maxTimestamp() == first.maxTimestamp()) {
          q.addColumn(u.family(), u.qualifier());
          group.add(j);
          read[j] = true;
        }
      }
      List<Cell> cells = region.reads().readLatest(q.build());
      for (int j : group) {
        for (Cell c : cells) { // a column's newest version comes first
          if (updates.get(j).sameColumn(c)) {
            current[j] = c;
            break;
          }
        }
      }
    }
    long now = region.servicesClockNow();
    List<Cell> out = new ArrayList<>(updates.size());
    for (int i = 0; i < updates.size(); i++) {
      ColumnUpdate u = updates.get(i);
      long ts = current[i] == null ? now : Math.max(now, current[i].timestamp());
      out.add(Cells.put(row, u.family(), u.qualifier(), ts, u.newValue(current[i])));
    }
    return out;
  }
}
