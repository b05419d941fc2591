package io.bellows.compaction;

import io.bellows.metrics.MetricSet;
import io.bellows.scan.CellScanner;
import io.bellows.scan.KeyRangeScanner;
import io.bellows.scan.MergingScanner;
import io.bellows.scan.RetentionFilter;
import io.bellows.util.Bytes;
import io.bellows.util.CorruptionException;
import io.bellows.util.DamagedFileException;
import io.bellows.util.EventListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * The compaction of one store: asks the store's {@link CompactionPolicy} which files a minor
 * compaction merges (or takes them all for a major one), merges them through the retention rules
 * into one new file kept to the store's row range, and has the store commit the change in one step
 * ({@link CompactionTarget}); the inputs stay readable for their readers until the last one closes.
 * A damaged input stops the store's compactions (the target says how).
 *
 * <p>One at a time per store: the store runs {@link #run} under its compaction lock. Selection may
 * run at any time, from any thread.
 *
 * @param <F> the store's file type
 */
public final class CompactionJob<F extends CompactionInput> {
  private final String table;
  private final String family;
  private final EventListener events;
  private final CompactionTarget<F> target;
  private final CompactionPolicy policy;
  private final LongAdder compactionCount;
  private final LongAdder majorCompactionCount;
  private final LongAdder compactionBytesWritten;
  private final LongAdder compactionBytesRead;
  private final LongAdder compactionCellsDropped;
  /** The rows the store serves, [start, end), an empty key unbounded: compactions keep only them. */
  private volatile byte[] rangeStart = Bytes.EMPTY;
  private volatile byte[] rangeEnd = Bytes.EMPTY;

  /**
   * @param table the table's name and {@code family} the store's, for events
   * @param events where compaction events go (must not throw)
   * @param metrics the store's metric set, where the compaction counters go
   */
  public CompactionJob(String table, String family, EventListener events, CompactionTarget<F> target,
      CompactionPolicy policy, MetricSet metrics) {
    this.table = table;
    this.family = family;
    this.events = events;
    this.target = target;
    this.policy = policy;
    this.compactionCount = metrics.counter("compaction.count");
    this.majorCompactionCount = metrics.counter("compaction.major.count");
    this.compactionBytesWritten = metrics.counter("compaction.bytes.written");
    this.compactionBytesRead = metrics.counter("compaction.bytes.read");
    this.compactionCellsDropped = metrics.counter("compaction.cells.dropped");
  }

  /** Sets the row range the store serves, [start, end) (an empty key is unbounded). */
  public void keyRange(byte[] start, byte[] end) {
    this.rangeStart = start.clone();
    this.rangeEnd = end.clone();
  }

  /** Files a minor compaction would merge now (empty if none). */
  public List<F> selectMinor() {
    if (target.knownDamage() != null) {
      return List.of(); // a compaction would meet the damaged file again
    }
    List<F> current = target.liveFiles();
    List<CompactionCandidate> candidates = new ArrayList<>(current.size());
    for (F f : current) {
      candidates.add(new CompactionCandidate(f.id(), f.size()));
    }
    CompactionSelection picked = policy.select(candidates);
    List<F> out = new ArrayList<>();
    for (CompactionCandidate c : picked.files()) {
      for (F f : current) {
        if (f.id() == c.id()) {
          out.add(f);
        }
      }
    }
    return out;
  }

  /**
   * Compacts the files a minor compaction picks, or all files if {@code major}, into one file; the
   * caller holds the store's compaction lock and the store is open. Returns false if nothing was
   * compacted.
   */
  public boolean run(boolean major) {
    return run(major, () -> false);
  }

  /**
   * As {@link #run(boolean)}, but gives up, committing nothing and returning false, once {@code stop}
   * says so (asked every few hundred cells while the new file is written; its unfinished output is
   * deleted). The inputs stay as they were.
   */
  public boolean run(boolean major, BooleanSupplier stop) {
    DamagedFileException known = target.knownDamage();
    if (known != null) {
      throw known; // never a retry loop over a file known to be damaged
    }
    List<F> inputs = major ? target.liveFiles() : selectMinor();
    if (inputs.isEmpty() || (!major && inputs.size() < 2)) {
      return false;
    }
    RetentionFilter.Mode mode = major ? RetentionFilter.Mode.MAJOR : RetentionFilter.Mode.MINOR;
    long inputBytes = 0;
    long inputCells = 0;
    List<CellScanner> scanners = new ArrayList<>();
    for (F f : inputs) {
      f.retain();
      inputBytes += f.size();
      inputCells += f.cellCount();
    }
    long start = System.nanoTime();
    events.compactionBegin(new EventListener.CompactionInfo(table, family, major,
        inputs.size(), inputBytes, inputCells, -1, -1, -1, Duration.ZERO));
    F written;
    try {
      for (F f : inputs) {
        scanners.add(f.compactionScanner());
      }
      try (CellScanner merged = new StoppableScanner(
          new KeyRangeScanner(new MergingScanner(scanners), rangeStart, rangeEnd), stop)) {
        written = target.write(merged, mode, inputCells, major);
      }
    } catch (StoppableScanner.Stopped e) {
      return false;
    } catch (CorruptionException e) {
      throw target.damaged(inputs, e); // the inputs are still retained: safe to check
    } finally {
      for (F f : inputs) {
        f.release();
      }
    }
    target.commit(written, inputs);
    compactionCount.increment();
    if (major) {
      majorCompactionCount.increment();
    }
    compactionBytesRead.add(inputBytes);
    long outCells = written == null ? 0 : written.cellCount();
    compactionCellsDropped.add(Math.max(0, inputCells - outCells));
    if (written != null) {
      compactionBytesWritten.add(written.size());
    }
    // The engine's compaction metrics come from this event (io.bellows.metrics.EventMetrics).
    events.compactionEnd(new EventListener.CompactionInfo(table, family, major,
        inputs.size(), inputBytes, inputCells, written == null ? -1 : written.id(),
        written == null ? 0 : written.size(), outCells, Duration.ofNanos(System.nanoTime() - start)));
    return true;
  }
}
