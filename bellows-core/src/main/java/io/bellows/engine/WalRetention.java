package io.bellows.engine;

import io.bellows.metrics.MetricSet;
import io.bellows.region.Region;
import io.bellows.wal.Wal;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The engine's write-ahead log and how long its files are kept: a file goes once every edit in it
 * is in sorted files (after each flush, see docs/ARCHITECTURE.md), and when the log holds more
 * files than {@code bellows.wal.max.files}, the region holding the oldest edit is flushed so that
 * the oldest file can go.
 */
final class WalRetention {
  private final EngineTables tables;
  private final AtomicLong sequence;
  private final int maxFiles;
  private final Consumer<Region> flushAll;
  private final LongAdder flushesForSize;
  /** WAL rolls already checked against bellows.wal.max.files. */
  private final AtomicLong rollsChecked = new AtomicLong();
  private volatile Wal wal;

  /**
   * @param flushAll asks for a flush of every store of a region
   */
  WalRetention(EngineTables tables, AtomicLong sequence, int maxFiles, MetricSet metrics, Consumer<Region> flushAll) {
    this.tables = tables;
    this.sequence = sequence;
    this.maxFiles = maxFiles;
    this.flushAll = flushAll;
    this.flushesForSize = metrics.counter("flush.requested.by.wal.size");
  }

  /** The log, or null before recovery opened it. */
  Wal wal() {
    return wal;
  }

  void opened(Wal w) {
    wal = w;
  }

  /** Deletes the files whose edits are all in sorted files (the current file stays). */
  void deleteObsolete() {
    Wal w = wal;
    if (w == null) {
      return;
    }
    w.deleteObsolete(threshold());
  }

  /** The oldest sequence id still needed from the WAL: edits below it are all in sorted files. */
  long threshold() {
    // Order matters: the floor first, then in-flight mutations, then memory stores, so that a
    // mutation moving from "in flight" to "in a memory store" meanwhile is seen in one of them.
    long threshold = sequence.get() + 1;
    for (Region r : tables.allRegions()) {
      threshold = Math.min(threshold, r.oldestPendingSeqId());
    }
    for (Region r : tables.allRegions()) {
      threshold = Math.min(threshold, r.oldestUnflushedSeqId());
    }
    return threshold;
  }

  /** After every mutation: cheap unless the log rolled since the last check. */
  void wrote() {
    Wal w = wal;
    long rolled = w.filesRolled();
    if (rolled != rollsChecked.get() && rollsChecked.getAndSet(rolled) != rolled) {
      flushForSize(w);
    }
  }

  /**
   * When the WAL holds more files than allowed, flushes the region holding the oldest edit still
   * only in memory, so that the oldest file can be deleted (the WAL would otherwise grow without
   * bound under a table that is written slowly).
   */
  private void flushForSize(Wal w) {
    if (w.fileCount() <= maxFiles) {
      return;
    }
    Region oldest = null;
    for (Region r : tables.allRegions()) {
      if (oldest == null || r.oldestUnflushedSeqId() < oldest.oldestUnflushedSeqId()) {
        oldest = r;
      }
    }
    if (oldest != null && oldest.oldestUnflushedSeqId() != Long.MAX_VALUE) {
      flushesForSize.increment();
      flushAll.accept(oldest);
    }
  }

  /**
   * Closes the log. After a clean close of every region (all flushed) no edit is needed any more:
   * the last file goes too, and the next open reads no log at all; else (a flush failed: its edits
   * exist only in the log) the log is kept whole.
   */
  void close(boolean everyRegionFlushed) {
    Wal w = wal;
    if (w == null) {
      return;
    }
    if (everyRegionFlushed) {
      w.closeAndDeleteObsolete(threshold());
    } else {
      w.close();
    }
  }
}
