package io.bellows.scan;

import io.bellows.cell.Cell;
import java.io.Closeable;

/**
 * A forward iterator over cells in {@link io.bellows.cell.CellComparator} order that can seek. Every
 * source of cells (a memory segment, a sorted file, a merge of others) is one. Not thread-safe: one
 * reader uses a scanner at a time. A new scanner is not positioned: call {@link #seek} first.
 */
public interface CellScanner extends Closeable {
  /** The cell at the current position, or null when exhausted. Does not move. */
  Cell peek();

  /** Returns the cell at the current position and moves past it; null when exhausted. */
  Cell next();

  /**
   * Positions at the first cell &gt;= {@code key} (by the full cell order, sequence id included:
   * use search keys from {@link io.bellows.cell.Cells} whose sequence id is {@code Long.MAX_VALUE}
   * to land before every version). May move backwards. Returns whether a cell is there.
   */
  boolean seek(Cell key);

  /**
   * {@link #seek} to the first cell of {@code row} ({@link #rowStart}); scanners that can find a
   * row's start directly (an immutable memory segment's row positions, by {@code rowHash}, the row's
   * {@link ScanQuery#rowHash()}) do so.
   */
  default boolean seekRow(byte[] row, long rowHash) {
    return seek(rowStart(row));
  }

  /**
   * Like {@link #seek}, but {@code key} is never before the current position, which lets
   * implementations move forward cheaply.
   */
  default boolean reseek(Cell key) {
    return seek(key);
  }

  /**
   * For reversed reads: the largest row before {@code row} that holds any cell of this scanner
   * (whatever its type or sequence id), or null if none; an empty {@code row} stands for "after
   * every row", so the answer is the last row. Leaves the position undefined: callers seek before
   * reading again. The default refuses, for scanners that cannot look backwards.
   */
  default byte[] rowBefore(byte[] row) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot look backwards");
  }

  /** The search key before every cell of {@code row}, whatever its sequence id. */
  static Cell rowStart(byte[] row) {
    Cell k = io.bellows.cell.Cells.firstOnRow(row);
    k.setSeqId(Long.MAX_VALUE);
    return k;
  }

  /**
   * Whether this scanner may hold cells the query wants; a read skips scanners that return false
   * (key range, time range, Bloom filter). The default keeps the scanner.
   */
  default boolean shouldUse(ScanQuery query) {
    return true;
  }

  /**
   * An upper bound of the timestamps of the cells a reader whose read point is already taken can
   * see here, tombstones included: a get that has found the newest versions of its columns skips
   * the sources whose newest timestamp is older (docs/design/scan.md, "Gets: newest first").
   * {@link Long#MAX_VALUE} when unknown, the default, which never lets a source be skipped.
   */
  default long newestTimestamp() {
    return Long.MAX_VALUE;
  }

  /** Releases what the scanner holds (file readers, segment references). Idempotent. */
  @Override
  void close();
}
