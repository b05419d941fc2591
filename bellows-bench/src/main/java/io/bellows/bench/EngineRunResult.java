package io.bellows.bench;

import org.HdrHistogram.Histogram;

/**
 * What one engine run measured. Write-phase figures (time, latency, WAL, blocking, pacing, GC) cover the
 * timed puts only; disk figures (flushes, compactions, bytes) are read after the final flush that
 * puts the last of the data on disk, so every policy's figures cover all of its data. Immutable
 * once built (the histograms are not modified after the run). {@code flushedCells} and {@code
 * memoryEliminatedCells} are the table's store counters {@code flush.cells} and {@code
 * memstore.cells.eliminated} after the final flush; -1 for a store without them (RocksDB).
 * {@code walFilesRolled} counts the WAL files the write phase closed and replaced ({@code
 * wal.files.rolled}), {@code walFilesLive} those kept at its end, before the final flush ({@code
 * wal.files}): how soon flushes let the log be truncated, the evaluation draft's count; -1 for RocksDB.
 */
record EngineRunResult(
    StoreConfig config,
    EngineWorkload workload,
    long writeNanos,
    long flushes,
    long compactions,
    long flushBytes,
    long compactionBytes,
    long walBytes,
    long walRecords,
    long walSyncs,
    long blockedNanos,
    long blockedWrites,
    long delayedNanos,
    long gcCount,
    long gcMillis,
    long storeFiles,
    Histogram putNanos,
    long getNanos,
    long getMisses,
    Histogram getNanosEach,
    long flushedCells,
    long memoryEliminatedCells,
    long walFilesRolled,
    long walFilesLive) {

  double rowsPerSecond() {
    return workload.rows() * 1e9 / writeNanos;
  }

  double cellsPerSecond() {
    return rowsPerSecond() * workload.shape().fields();
  }

  /** Bytes written to sorted files (flushes + compactions) per byte of user data; the WAL is excluded. */
  double writeAmplification() {
    return (double) (flushBytes + compactionBytes) / workload.userBytes();
  }

  double getsPerSecond() {
    return getNanos == 0 ? 0 : workload.gets() * 1e9 / getNanos;
  }
}
