package io.bellows.client;

import io.bellows.cell.Cell;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The cells of one row returned by a get or scan, in cell order (family, qualifier, newest first). */
public final class Result {
  private static final Result EMPTY = new Result(null, List.of());
  private static final Result EMPTY_STALE = new Result(null, List.of(), true);

  private final byte[] row;
  private final List<Cell> cells;
  private final boolean stale;

  public Result(byte[] row, List<Cell> cells) {
    this(row, cells, false);
  }

  /** {@code stale}: a TIMELINE read answered by a replica that does not lead its region ({@link #isStale}). */
  public Result(byte[] row, List<Cell> cells, boolean stale) {
    this.row = row;
    this.cells = Collections.unmodifiableList(cells);
    this.stale = stale;
  }

  public static Result empty() {
    return EMPTY;
  }

  /** An empty result, stale or not. */
  public static Result empty(boolean stale) {
    return stale ? EMPTY_STALE : EMPTY;
  }

  /**
   * Whether the row may lie behind the latest writes: a {@link io.bellows.scan.Consistency#TIMELINE}
   * read answered by a cluster member that does not lead the row's region (HBase's {@code
   * Result.isStale()}). Always false for a default read.
   */
  public boolean isStale() {
    return stale;
  }

  /** The row key, or null for an empty result. */
  public byte[] row() {
    return row;
  }

  public boolean isEmpty() {
    return cells.isEmpty();
  }

  public int size() {
    return cells.size();
  }

  public List<Cell> cells() {
    return cells;
  }

  /** The newest value of a column, or null. */
  public byte[] getValue(byte[] family, byte[] qualifier) {
    Cell c = getColumnLatestCell(family, qualifier);
    return c == null ? null : c.value();
  }

  public Cell getColumnLatestCell(byte[] family, byte[] qualifier) {
    for (Cell c : cells) {
      if (matches(c, family, qualifier)) {
        return c;
      }
    }
    return null;
  }

  /** All returned versions of a column, newest first. */
  public List<Cell> getColumnCells(byte[] family, byte[] qualifier) {
    List<Cell> out = new ArrayList<>();
    for (Cell c : cells) {
      if (matches(c, family, qualifier)) {
        out.add(c);
      }
    }
    return out;
  }

  private static boolean matches(Cell c, byte[] family, byte[] qualifier) {
    return Bytes.equals(c.array(), c.familyOffset(), c.familyLength(), family, 0, family.length)
        && Bytes.equals(c.array(), c.qualifierOffset(), c.qualifierLength(), qualifier, 0, qualifier.length);
  }

  @Override
  public String toString() {
    return "Result{" + (row == null ? "" : Bytes.toStringBinary(row)) + " " + cells + (stale ? " stale" : "") + "}";
  }
}
