package io.bellows.util;

import java.time.Duration;

/**
 * Receives the engine's events: flushes, compactions, write stalls and the background-error state.
 * Register any number with {@code EngineOptions.builder().eventListener(l)}; they are called in
 * registration order, after the engine's own metrics are updated from the same event. Every method
 * does nothing by default.
 *
 * <p><b>Threads.</b> A method is called on the thread doing the work, synchronously: flush events on
 * a {@code bellows-flush-N} thread, or on the thread calling {@code flush}, {@code resume}, {@code
 * disableTable} or {@code close}; compaction events on a {@code bellows-compaction-N} thread or the
 * thread calling {@code compact}, {@code majorCompact} or {@code resume}; write-stall events on the
 * writer's thread; {@link #backgroundError} and {@link #errorRecovered} on the thread whose attempt
 * failed or succeeded (a background thread, a writer whose WAL append failed or whose wait for a
 * failing flush ran out, or the caller of {@code resume}/{@code flush}), sometimes while that thread
 * holds engine locks. So: return quickly, never block, and expect calls from several threads at
 * once. From a listener, only query the engine ({@code backgroundError()}, {@code metrics()}, reads);
 * to write, flush, compact or {@code resume()} in reaction to an event, hand it to another thread —
 * done in the callback it may wait for the very work that is reporting, for good.
 *
 * <p><b>Failures.</b> A listener must not throw. If it does, the engine catches the exception, logs
 * it once per listener (counting the rest in the metric {@code event.listener.failures}) and goes
 * on; other listeners still get the event.
 *
 * <p>A begin without its end means the work failed: {@code flushEnd} and {@code compactionEnd} are
 * called only on success. Failed background work is reported through {@link #backgroundError}.
 */
public interface EventListener {
  /**
   * A flush of one store. At {@code flushBegin} the file fields are -1 and the duration zero.
   *
   * @param table table name
   * @param family column family name
   * @param cells cells in the flushed memory snapshot
   * @param memStoreBytes data bytes of the flushed memory snapshot
   * @param fileId number of the written sorted file; -1 if none was written (everything in the
   *     snapshot was dropped as surplus)
   * @param fileBytes size of the written sorted file, 0 if none
   * @param duration from begin to end
   */
  record FlushInfo(String table, String family, long cells, long memStoreBytes, long fileId, long fileBytes,
      Duration duration) {}

  /**
   * A compaction of one store. At {@code compactionBegin} the output fields are -1 and the duration
   * zero.
   *
   * @param table table name
   * @param family column family name
   * @param major whether every file was compacted with the MAJOR rules (tombstones dropped)
   * @param inputFiles number of files merged
   * @param inputBytes their total size
   * @param inputCells their total cell count
   * @param outputFileId number of the written file; -1 if none (everything was dropped)
   * @param outputBytes its size, 0 if none
   * @param outputCells its cell count, 0 if none
   * @param duration from begin to end
   */
  record CompactionInfo(String table, String family, boolean major, int inputFiles, long inputBytes,
      long inputCells, long outputFileId, long outputBytes, long outputCells, Duration duration) {}

  /** Why a writer waits. */
  enum StallCause {
    /** The store's memory store exceeds {@code bellows.memstore.block.multiplier} × the flush size. */
    MEMSTORE_FULL,
    /** The store has more than {@code bellows.store.blocking.files} sorted files. */
    TOO_MANY_FILES,
    /** All memory stores together hold the engine's budget ({@code bellows.memstore.global.*}). */
    GLOBAL_MEMORY_FULL
  }

  /**
   * One writer's wait on one store. At {@code writeStallBegin} the duration is zero.
   *
   * @param table table name
   * @param family column family name
   * @param cause why the writer started to wait
   * @param duration how long it waited
   */
  record WriteStallInfo(String table, String family, StallCause cause, Duration duration) {}

  /**
   * A damaged sorted file found by background work (a compaction reading it).
   *
   * @param table table name
   * @param family column family name
   * @param file the damaged file (where it was found)
   * @param offset offset of the damaged block, -1 if the damage is in the file's trailer, metadata or
   *     index (then {@code problem} says where)
   * @param problem what is wrong, naming the file and offset
   * @param quarantinedTo where the file was set aside ({@code bellows.corruption.quarantine} on), or
   *     null: then writes to the store are refused until {@code bellows repair --fix}
   */
  record CorruptionInfo(String table, String family, String file, long offset, String problem,
      String quarantinedTo) {}

  default void flushBegin(FlushInfo info) {}

  default void flushEnd(FlushInfo info) {}

  default void compactionBegin(CompactionInfo info) {}

  /** After a compaction committed its result; not called for one that failed or that its store's close stopped. */
  default void compactionEnd(CompactionInfo info) {}

  default void writeStallBegin(WriteStallInfo info) {}

  default void writeStallEnd(WriteStallInfo info) {}

  /**
   * A background error appeared or became more severe: a kind of work started failing for a table
   * (SOFT or, for a WAL failure, HARD at once), or a failing flush now stops writes (HARD). Not
   * called for each further failed attempt; {@code Bellows.backgroundError()} has the count.
   */
  default void backgroundError(BackgroundError error) {}

  /** A background error cleared: the work succeeded again. {@code cleared} is its last state. */
  default void errorRecovered(BackgroundError cleared) {}

  /**
   * Background work met a damaged sorted file. Called once per damaged file, on the thread that met
   * it; when the file was not set aside, after the {@link #backgroundError} that records it (so the
   * engine's state already shows it).
   */
  default void corruptionFound(CorruptionInfo info) {}
}
