package io.bellows.store;

import io.bellows.compaction.CompactionCandidate;
import io.bellows.compaction.CompactionPolicy;
import io.bellows.compaction.CompactionSelection;
import io.bellows.metrics.MetricSet;
import io.bellows.scan.CellScanner;
import io.bellows.scan.KeyRangeScanner;
import io.bellows.scan.MergingScanner;
import io.bellows.scan.RetentionFilter;
import io.bellows.sstable.BlockCaching;
import io.bellows.sstable.BlockSource;
import io.bellows.util.CorruptionException;
import io.bellows.util.DamagedFileException;
import io.bellows.util.EventListener;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * The compaction of one store: asks the store's {@link CompactionPolicy} which files a minor
 * compaction merges (or takes them all for a major one), merges them through the retention rules
 * into one new file kept to the store's row range, and commits the change in one manifest write;
 * the inputs are deleted when their last reader closes ({@link StoreFiles#commit}). A damaged input
 * stops the store's compactions and writes ({@link StoreDamage}).
 *
 * <p>One at a time per store: the store runs {@link #run} under its compaction lock. Selection may
 * run at any time, from any thread.
 */
final class CompactionJob {
  private final String family;
  private final Path dir;
  private final StoreContext ctx;
  private final StoreFiles files;
  private final StoreDamage damage;
  private final CompactionPolicy policy;
  private final BlockCaching caching;
  private final BlockSource.Wrapper blockWrapper;
  private final LongAdder compactionCount;
  private final LongAdder majorCompactionCount;
  private final LongAdder compactionBytesWritten;
  private final LongAdder compactionBytesRead;
  private final LongAdder compactionCellsDropped;
  /** The rows the store serves, [start, end), an empty key unbounded: compactions keep only them. */
  private volatile byte[] rangeStart = io.bellows.util.Bytes.EMPTY;
  private volatile byte[] rangeEnd = io.bellows.util.Bytes.EMPTY;

  CompactionJob(String family, Path dir, StoreContext ctx, StoreFiles files, StoreDamage damage,
      CompactionPolicy policy, BlockCaching caching, BlockSource.Wrapper blockWrapper, MetricSet metrics) {
    this.family = family;
    this.dir = dir;
    this.ctx = ctx;
    this.files = files;
    this.damage = damage;
    this.policy = policy;
    this.caching = caching;
    this.blockWrapper = blockWrapper;
    this.compactionCount = metrics.counter("compaction.count");
    this.majorCompactionCount = metrics.counter("compaction.major.count");
    this.compactionBytesWritten = metrics.counter("compaction.bytes.written");
    this.compactionBytesRead = metrics.counter("compaction.bytes.read");
    this.compactionCellsDropped = metrics.counter("compaction.cells.dropped");
  }

  /** Sets the row range the store serves, [start, end) (an empty key is unbounded). */
  void keyRange(byte[] start, byte[] end) {
    this.rangeStart = start.clone();
    this.rangeEnd = end.clone();
  }

  /** Files a minor compaction would merge now (empty if none). */
  List<StoreFile> selectMinor() {
    if (damage.damage() != null) {
      return List.of(); // a compaction would meet the damaged file again
    }
    List<StoreFile> current = files.live();
    List<CompactionCandidate> candidates = new ArrayList<>(current.size());
    for (StoreFile f : current) {
      candidates.add(new CompactionCandidate(f.id(), f.size()));
    }
    CompactionSelection picked = policy.select(candidates);
    List<StoreFile> out = new ArrayList<>();
    for (CompactionCandidate c : picked.files()) {
      for (StoreFile f : current) {
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
  boolean run(boolean major) {
    DamagedFileException known = damage.damage();
    if (known != null) {
      throw known; // never a retry loop over a file known to be damaged
    }
    List<StoreFile> inputs = major ? files.live() : selectMinor();
    if (inputs.isEmpty() || (!major && inputs.size() < 2)) {
      return false;
    }
    RetentionFilter.Mode mode = major ? RetentionFilter.Mode.MAJOR : RetentionFilter.Mode.MINOR;
    long fileId = ctx.fileNumbers().allocate();
    long inputBytes = 0;
    long inputCells = 0;
    List<CellScanner> scanners = new ArrayList<>();
    for (StoreFile f : inputs) {
      f.retain();
      inputBytes += f.size();
      inputCells += f.cellCount();
    }
    long start = System.nanoTime();
    ctx.events().compactionBegin(new EventListener.CompactionInfo(ctx.table(), family, major,
        inputs.size(), inputBytes, inputCells, -1, -1, -1, Duration.ZERO));
    StoreFile written;
    try {
      for (StoreFile f : inputs) {
        scanners.add(f.compactionScanner());
      }
      try (CellScanner merged = new KeyRangeScanner(new MergingScanner(scanners), rangeStart, rangeEnd)) {
        written = StoreFileWriting.write(dir, fileId, ctx, merged, StoreFileWriting.retention(ctx, mode), inputCells,
            major, caching, blockWrapper, false);
      }
    } catch (CorruptionException e) {
      throw damage.classify(inputs, e); // the inputs are still retained: safe to check
    } finally {
      for (StoreFile f : inputs) {
        f.release();
      }
    }
    files.commit(written == null ? List.of() : List.of(written), inputs, files.flushedSeqId());
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
    ctx.events().compactionEnd(new EventListener.CompactionInfo(ctx.table(), family, major,
        inputs.size(), inputBytes, inputCells, written == null ? -1 : written.id(),
        written == null ? 0 : written.size(), outCells, Duration.ofNanos(System.nanoTime() - start)));
    return true;
  }
}
