package io.bellows.wal;

/**
 * Per region, the smallest sequence id of an edit the region still needs from the log (one that is
 * only in memory, or in flight); {@link Long#MAX_VALUE} for a region that needs none (it is closed
 * and flushed, or gone). A log file may go once no region needs any edit in it.
 */
@FunctionalInterface
public interface OldestNeeded {
  long of(int regionId);
}
