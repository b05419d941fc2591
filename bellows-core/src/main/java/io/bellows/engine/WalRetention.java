package io.bellows.engine;

import io.bellows.metrics.MetricSet;
import io.bellows.region.Region;
import io.bellows.wal.OldestNeeded;
import io.bellows.wal.Wal;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
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
    w.deleteObsolete(oldestNeeded());
  }

  /**
   * Per region, the oldest sequence id it still needs from the WAL: its edits below it are all in
   * sorted files. A file goes once each region in it has flushed past its own edits there, so a
   * region written slowly keeps only the files that hold its edits, not every file after them.
   * Regions not open need nothing (a closed region was flushed; a dropped one's edits are void).
   */
  OldestNeeded oldestNeeded() {
    // Order matters: the floor first, then in-flight mutations, then memory stores, so that a
    // mutation moving from "in flight" to "in a memory store" meanwhile is seen in one of them, and
    // one that starts after this read gets an id at or above the floor. The floor is the next id of
    // the counter the regions take their ids from (one counter for all today; a region with a
    // counter of its own would give its own).
    long floor = sequence.get() + 1;
    Map<Integer, Long> needed = new HashMap<>();
    for (Region r : tables.allRegions()) {
      needed.merge(r.id(), Math.min(floor, r.oldestPendingSeqId()), Math::min);
    }
    for (Region r : tables.allRegions()) {
      needed.merge(r.id(), r.oldestUnflushedSeqId(), Math::min);
    }
    return region -> needed.getOrDefault(region, Long.MAX_VALUE);
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
   * When the WAL holds more files than allowed, flushes the regions that still need edits of the
   * oldest file, so that it can be deleted (the WAL would otherwise grow without bound under a
   * table that is written slowly).
   */
  private void flushForSize(Wal w) {
    if (w.fileCount() <= maxFiles) {
      return;
    }
    OldestNeeded needed = oldestNeeded();
    if (w.deleteObsolete(needed) > 0 && w.fileCount() <= maxFiles) {
      return; // files no region needed any more, not yet deleted (no flush since they were)
    }
    Set<Integer> pinning = w.regionsPinningOldestFile(needed);
    for (Region r : tables.allRegions()) {
      if (pinning.contains(r.id())) {
        flushesForSize.increment();
        flushAll.accept(r);
      }
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
      w.closeAndDeleteObsolete(oldestNeeded());
    } else {
      w.close();
    }
  }
}
