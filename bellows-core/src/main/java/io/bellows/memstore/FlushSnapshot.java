package io.bellows.memstore;

import io.bellows.scan.CellScanner;

/**
 * The frozen contents of a memory store handed to a disk flush. The flush reads it through
 * {@link #scanner()} (a merged, sorted view; it may contain redundant versions that the flush's
 * retention filter drops) and then calls {@link MemStore#releaseSnapshot}.
 */
public interface FlushSnapshot {
  /** Identifies the snapshot; increases with every snapshot of one memory store. */
  long id();

  /** A new scanner over all cells of the snapshot, in cell order; the caller closes it. */
  CellScanner scanner();

  long cellCount();

  MemStoreSize size();

  /** Largest sequence id in the snapshot (0 if empty). */
  long maxSeqId();

  /** Smallest sequence id in the snapshot ({@link Long#MAX_VALUE} if empty). */
  long minSeqId();

  /** Smallest and largest cell timestamp, for the sorted file's metadata. */
  long minTimestamp();

  long maxTimestamp();
}
