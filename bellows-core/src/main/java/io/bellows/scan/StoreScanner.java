package io.bellows.scan;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.util.Bytes;
import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;

/**
 * The user-read side of one store (one column family): merges the store's sources (memory segments
 * and sorted files) and returns, row by row, exactly the cells a reader at the query's read point
 * and at time {@code now} may see (docs/design/scan.md, "What a reader sees"). The region merges the
 * rows of several stores and applies the row limit.
 *
 * <p>Per row it first reads the row's empty-qualifier group (which holds the DELETE_FAMILY markers
 * that mask every column of the row), then visits only wanted columns, seeking to the next wanted
 * column, past a finished column, or to the next row instead of reading every cell.
 *
 * <p>Not thread-safe. Owns its sources: it closes those it does not use right away and the rest in
 * {@link #close()}.
 */
public final class StoreScanner implements Closeable {
  /** Cells of a finished column stepped over one by one before the rest is skipped by a reseek. */
  static final int SKIP_STEPS = 3;

  private final MergingScanner merged;
  private final ScanQuery query;
  private final byte[] family;
  /** Wanted qualifiers in order, or null for all. */
  private final NavigableSet<byte[]> qualifiers;
  private final VersionTracker tracker;
  private boolean started;
  private boolean done;
  /** Reversed reads: the rows still to read lie before this one (empty: every row). */
  private byte[] before;

  // Per column being read.
  private int returned;
  private boolean columnDone;

  /**
   * @param family the store's family name
   * @param retention the family's version and TTL rules
   * @param now the reader's time (ms), for TTL
   */
  public StoreScanner(List<? extends CellScanner> sources, ScanQuery query, byte[] family, Retention retention,
      long now) {
    this.query = query;
    this.family = family;
    boolean wantsFamily = query.wantsFamily(family);
    this.qualifiers = wantsFamily ? query.qualifiers(family) : null;
    List<CellScanner> used = new ArrayList<>();
    for (CellScanner s : sources) {
      if (wantsFamily && s.shouldUse(query)) {
        used.add(s);
      } else {
        s.close();
      }
    }
    this.merged = new MergingScanner(used);
    this.tracker = new VersionTracker(retention, query.readPoint(), now);
    this.done = !wantsFamily || used.isEmpty();
  }

  /**
   * Appends the visible cells of the next row that has any, in cell order, and returns true; returns
   * false (appending nothing) when no row in the query's range is left.
   */
  public boolean nextRow(List<Cell> out) {
    if (done) {
      return false;
    }
    if (!started) {
      started = true;
      merged.seek(startKey());
    }
    while (true) {
      Cell c = merged.peek();
      if (c == null || query.pastStop(c.array(), c.rowOffset(), c.rowLength())) {
        done = true;
        return false;
      }
      int before = out.size();
      if (query.rowInRange(c.array(), c.rowOffset(), c.rowLength())) {
        readRow(c, out);
      } else {
        merged.reseek(Cells.lastOnRow(c)); // only possible for odd start keys; be safe
      }
      if (out.size() > before) {
        return true;
      }
    }
  }

  /**
   * For reversed reads: appends the visible cells of the previous row that has any (the last such
   * row of the query's range on the first call), in cell order, and returns true; false when no
   * row is left. Each step asks every source for its last row before the one just read
   * ({@link CellScanner#rowBefore}), seeks to the largest and reads that row forwards with the same
   * rules as {@link #nextRow}. Use either this or {@link #nextRow} on one scanner, not both.
   */
  public boolean previousRow(List<Cell> out) {
    if (done) {
      return false;
    }
    if (!started) {
      started = true;
      before = rowsBefore();
    }
    while (true) {
      byte[] row = merged.rowBefore(before);
      if (row == null || !query.rowInRange(row, 0, row.length)) {
        done = true;
        return false;
      }
      before = row;
      merged.seek(searchKey(Cells.firstOnRow(row)));
      Cell c = merged.peek();
      int size = out.size();
      if (c != null && c.sameRow(Cells.firstOnRow(row))) {
        readRow(c, out);
      }
      if (out.size() > size) {
        return true;
      }
    }
  }

  /** The first row past the query's range (empty for none): reversed reads start before it. */
  private byte[] rowsBefore() {
    byte[] stop = query.isSingleRow() ? query.startRow() : query.stopRow();
    if (stop.length == 0) {
      return Bytes.EMPTY;
    }
    if (!query.isSingleRow() && !query.stopInclusive()) {
      return stop;
    }
    byte[] next = new byte[stop.length + 1]; // the smallest row after an inclusive stop
    System.arraycopy(stop, 0, next, 0, stop.length);
    return next;
  }

  private Cell startKey() {
    byte[] start = query.startRow();
    if (start.length == 0 || query.startInclusive()) {
      return searchKey(Cells.firstOnRow(start));
    }
    byte[] next = new byte[start.length + 1]; // the smallest row after start
    System.arraycopy(start, 0, next, 0, start.length);
    return searchKey(Cells.firstOnRow(next));
  }

  /** Reads one row; {@code first} is the merged scanner's current cell, the row's first. */
  private void readRow(Cell first, List<Cell> out) {
    Cell rowKey = first;
    boolean wantEmpty = qualifiers == null || qualifiers.contains(Bytes.EMPTY);
    startColumn();
    // 1. The empty-qualifier group: every cell must be fed, for the DELETE_FAMILY markers.
    Cell c;
    while ((c = merged.peek()) != null && c.sameRow(rowKey) && c.qualifierLength() == 0) {
      merged.next();
      VersionTracker.Verdict v = tracker.classify(c);
      if (wantEmpty && !columnDone) {
        accept(c, v, out);
      }
    }
    // 2. The other columns, visiting only wanted ones.
    while ((c = merged.peek()) != null && c.sameRow(rowKey)) {
      if (qualifiers != null) {
        byte[] q = c.qualifier();
        byte[] want = qualifiers.ceiling(q);
        if (want == null) {
          merged.reseek(Cells.lastOnRow(c));
          return;
        }
        if (!Bytes.equals(want, 0, want.length, q, 0, q.length)) {
          merged.reseek(searchKey(Cells.firstOnColumn(c.row(), family, want)));
          continue;
        }
      }
      readColumn(c, out);
    }
  }

  /** Reads the column of {@code first} (the current cell), seeking past it once it is finished. */
  private void readColumn(Cell first, List<Cell> out) {
    startColumn();
    Cell c;
    while ((c = merged.peek()) != null && c.sameColumn(first)) {
      merged.next();
      accept(c, tracker.classify(c), out);
      if (columnDone) {
        skipColumn(first);
        return;
      }
    }
  }

  /**
   * Moves past the rest of a finished column: first by a few steps, since the usual rest is an
   * older version or two from other sources, then by a reseek, which searches again every source
   * still in the column.
   */
  private void skipColumn(Cell column) {
    for (int steps = 0; ; steps++) {
      Cell after = merged.peek();
      if (after == null || !after.sameColumn(column)) {
        return;
      }
      if (steps == SKIP_STEPS) {
        merged.reseek(Cells.lastOnColumn(column));
        return;
      }
      merged.next();
    }
  }

  private void startColumn() {
    returned = 0;
    columnDone = false;
  }

  /** Applies the query (time range, versions) to a classified cell; sets {@link #columnDone}. */
  private void accept(Cell c, VersionTracker.Verdict v, List<Cell> out) {
    switch (v) {
      case BEYOND_MAX_VERSIONS:
      case EXPIRED:
        columnDone = true; // every later version of the column is gone too
        return;
      case VISIBLE:
        break;
      default:
        return;
    }
    long ts = c.timestamp();
    if (ts >= query.maxTimestamp()) {
      return; // newer than the range; it still took its version slot
    }
    if (ts < query.minTimestamp()) {
      columnDone = true; // versions only get older from here
      return;
    }
    out.add(c);
    if (++returned >= query.maxVersions()) {
      columnDone = true;
    }
  }

  /** Search keys must sort before every real cell of their key, whatever its sequence id. */
  private static Cell searchKey(Cell k) {
    k.setSeqId(Long.MAX_VALUE);
    return k;
  }

  @Override
  public void close() {
    done = true;
    merged.close();
  }
}
