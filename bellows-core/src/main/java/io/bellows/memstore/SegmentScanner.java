package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.scan.CellScanner;
import io.bellows.scan.ScanQuery;

/**
 * A scanner over one segment that holds a reference to it until closed, and answers {@link
 * #shouldUse} from the segment's key range, time range and sequence ids (and, for a get, the
 * segment's row filter if it has one). Not thread-safe (one reader).
 */
final class SegmentScanner implements CellScanner {
  private final Segment segment;
  private final CellScanner cursor;
  private final boolean copyOut;
  private boolean closed;
  /** The cursor's current cell and its copy (when copying out), so peek() copies once per cell. */
  private Cell source;
  private Cell copy;

  /**
   * Takes over a reference the caller already holds on {@code segment}. With {@code copyOut} every
   * cell handed out owns its bytes (the cursor's cells view chunk memory that is recycled after the
   * segment is freed, possibly while a reader still keeps a cell).
   */
  SegmentScanner(Segment segment, CellScanner cursor, boolean copyOut) {
    this.segment = segment;
    this.cursor = cursor;
    this.copyOut = copyOut;
  }

  Segment segment() {
    return segment;
  }

  @Override
  public Cell peek() {
    Cell c = cursor.peek();
    if (!copyOut || c == null) {
      return c;
    }
    if (c != source) {
      source = c;
      copy = new Cell(c.toBytes(), 0, c.length(), c.seqId());
    }
    return copy;
  }

  @Override
  public Cell next() {
    if (!copyOut) {
      return cursor.next();
    }
    Cell c = peek();
    cursor.next();
    return c;
  }

  @Override
  public boolean seek(Cell key) {
    return cursor.seek(key);
  }

  @Override
  public boolean seekRow(byte[] row, long rowHash) {
    return cursor.seekRow(row, rowHash);
  }

  @Override
  public boolean reseek(Cell key) {
    return cursor.reseek(key);
  }

  @Override
  public byte[] rowBefore(byte[] row) {
    source = null;
    copy = null;
    return cursor.rowBefore(row);
  }

  @Override
  public boolean shouldUse(ScanQuery query) {
    return segment.mayMatch(query);
  }

  @Override
  public long newestTimestamp() {
    return segment.newestTimestamp();
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      cursor.close();
      segment.release();
    }
  }

  @Override
  public String toString() {
    return "scanner over " + segment;
  }
}
