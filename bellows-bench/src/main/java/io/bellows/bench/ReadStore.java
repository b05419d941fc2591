package io.bellows.bench;

import java.util.List;
import java.util.Map;

/**
 * A store under {@code bench read}: Bellows ({@link BellowsReadStore}) or RocksDB ({@link
 * RocksDbReadStore}) holding one cell per row. Gets and updates are thread-safe; load, compact and
 * close are called by one thread.
 */
interface ReadStore extends AutoCloseable {
  /** Figures that are levels, not running counts: a run reports them at its end, not as deltas. */
  List<String> GAUGES = List.of(ReadResult.KV_BYTES, ReadResult.KV_MAX_BYTES, ReadResult.KV_ENTRIES);

  /** Writes rows without a write-ahead log (the load is redone rather than recovered). */
  void load(List<byte[]> keys, List<byte[]> values) throws Exception;

  /** Rewrites one existing row, logged as a client's write is. */
  void update(byte[] key, byte[] value) throws Exception;

  /** The length of the row's value, or -1 if the row is missing. */
  int get(byte[] key) throws Exception;

  /** Flushes and major-compacts, so that the files are what reads meet. */
  void compact() throws Exception;

  /**
   * The store's read figures now, by {@link ReadResult} name: running counts (file bytes and pages
   * read, lookups, cached lookups, row-cache hits, ...) and the {@link #GAUGES}. A figure the store
   * does not report is absent.
   */
  Map<String, Double> figures();

  @Override
  void close();
}
