package io.bellows.bench;

import io.bellows.client.Put;
import java.util.List;

/**
 * A store as the paper's mixed workloads drive it ({@link PaperMixedRun}): batches of puts,
 * single-cell gets, short scans, and its disk counters. One implementation over Bellows' public
 * API, one over RocksDB. Thread-safe: the clients call it concurrently.
 */
interface PaperStore extends AutoCloseable {
  /** Counters since the store was opened; a figure the store does not expose is {@link PaperResult#NA}. */
  record Counters(long flushes, long compactions, long flushBytes, long compactionBytes, long walBytes,
      long stallNanos, long files) {
    Counters minus(Counters o) {
      return new Counters(flushes - o.flushes, compactions - o.compactions, flushBytes - o.flushBytes,
          compactionBytes - o.compactionBytes, walBytes - o.walBytes, stallNanos - o.stallNanos, files);
    }
  }

  /** Writes the rows as one call (one batch). */
  void write(List<Put> rows) throws Exception;

  /** Reads one cell of a row; true if it was found. */
  boolean getCell(byte[] row, byte[] qualifier) throws Exception;

  /** Reads up to {@code rows} whole rows from {@code startRow} on; returns the rows read. */
  int scan(byte[] startRow, int rows) throws Exception;

  /** Puts everything in memory on disk and waits for it. */
  void flush() throws Exception;

  Counters counters();

  @Override
  void close() throws Exception;
}
