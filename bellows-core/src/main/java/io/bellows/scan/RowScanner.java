package io.bellows.scan;

import io.bellows.cell.Cell;
import java.util.List;

/**
 * The rows of one read, in order, each whole (all its cells of one read point). The engine's
 * scanners and, later, a remote one implement it. Not thread-safe; close it to release what it
 * holds.
 */
public interface RowScanner extends AutoCloseable {
  /** Appends the cells of the next row to {@code out}; false when there are no more rows. */
  boolean nextRow(List<Cell> out);

  /**
   * Whether the rows may lie behind the latest writes: a {@link Consistency#TIMELINE} read answered
   * by a replica that does not lead its region (HBase's {@code Result.isStale()}). Known once the
   * scanner is open; false for every read of one engine and for a strong read.
   */
  default boolean mayBeStale() {
    return false;
  }

  @Override
  void close();
}
