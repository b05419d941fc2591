package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.scan.CellScanner;
import io.bellows.scan.ScanQuery;

/**
 * A scanner over one segment that holds a reference to it until closed, and answers {@link
 * #shouldUse} from the segment's key range, time range and sequence ids. Not thread-safe (one reader).
 */
final class SegmentScanner implements CellScanner {
  private final Segment segment;
  private final CellScanner cursor;
  private boolean closed;

  /** Takes over a reference the caller already holds on {@code segment}. */
  SegmentScanner(Segment segment, CellScanner cursor) {
    this.segment = segment;
    this.cursor = cursor;
  }

  Segment segment() {
    return segment;
  }

  @Override
  public Cell peek() {
    return cursor.peek();
  }

  @Override
  public Cell next() {
    return cursor.next();
  }

  @Override
  public boolean seek(Cell key) {
    return cursor.seek(key);
  }

  @Override
  public boolean reseek(Cell key) {
    return cursor.reseek(key);
  }

  @Override
  public boolean shouldUse(ScanQuery query) {
    return segment.stats().mayMatch(query);
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
