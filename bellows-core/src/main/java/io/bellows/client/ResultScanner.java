package io.bellows.client;

import java.util.Iterator;

/**
 * Rows of a scan, in key order, from one consistent snapshot of the table. Must be closed: an open
 * scanner pins the files and memory it reads.
 */
public interface ResultScanner extends Iterable<Result>, AutoCloseable {
  /** The next row, or null when the scan is done. */
  Result next();

  @Override
  void close();

  @Override
  default Iterator<Result> iterator() {
    return new Iterator<>() {
      private Result pending;

      @Override
      public boolean hasNext() {
        if (pending == null) {
          pending = ResultScanner.this.next();
        }
        return pending != null;
      }

      @Override
      public Result next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        Result r = pending;
        pending = null;
        return r;
      }
    };
  }
}
