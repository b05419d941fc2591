package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.scan.CellScanner;
import io.bellows.config.MemStorePolicy;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.DoubleSupplier;

/**
 * The Accordion compacting memory store (policies BASIC, EAGER, ADAPTIVE): a small mutable active
 * segment, a pipeline of immutable segments (newest first) and the snapshot being flushed.
 *
 * <p><b>Write path.</b> A writer enters the active segment, adds, leaves. When the active segment's
 * footprint reaches {@code A × flushSize}, the writer that notices performs the in-memory flush: it
 * pushes the segment onto the pipeline, installs a fresh active segment and seals the old one — the
 * atomic swap is all a writer ever does; writers that lose the race for the swap lock simply go on.
 * The last writer to leave the sealed segment schedules the in-memory compaction on {@code
 * context.background()}.
 *
 * <p><b>Pipeline.</b> An immutable, versioned {@link Pipeline} installed by compare-and-set. Each
 * structural change (push, flatten, merge, compact, snapshot) builds a new version; a compaction
 * validates its input by segment identity when it installs its result, so losing a race against a
 * disk flush (snapshot) makes it abort and drop its result. At most one in-memory compaction runs
 * per store at a time.
 *
 * <p><b>Reads</b> take the active segment, then the pipeline, then the snapshot, without locks;
 * because segments only ever move in that direction and each move publishes the destination before
 * removing the source, every cell is seen at least once (duplicates are exact and readers drop them).
 *
 * <p>Thread-safety: {@link #add} and {@link #scanners} from any threads; {@link #snapshot} and
 * {@link #releaseSnapshot} from the flusher; the compaction on the background executor. The swap
 * lock serializes only swaps of the active segment (in-memory flush vs snapshot); writers never
 * block on it.
 */
public final class CompactingMemStore implements MemStore {
  private final MemStoreContext context;
  private final MemStorePolicy policy;
  private final long inMemoryFlushThreshold;
  private final int maxPipelineSegments;
  private final SegmentFactory segments;

  private final MemStoreAccounting accounting = new MemStoreAccounting();
  private final AtomicLong segmentIds = new AtomicLong();
  private final SegmentCompactor compactor;
  private final AdaptivePolicy adaptive;

  private final AtomicReference<MutableSegment> active;
  private final AtomicReference<Pipeline> pipeline = new AtomicReference<>(Pipeline.empty());
  /** Segments of the snapshot for readers; empty when there is none. Published before the pipeline is emptied. */
  private volatile List<Segment> snapshotSegments = List.of();
  private volatile MemStoreSnapshot snapshot;
  private final AtomicLong snapshotIds = new AtomicLong();
  /** Bumped by every snapshot; lets a batch of ADAPTIVE steps stop when a disk flush intervenes. */
  private final AtomicLong diskFlushEpoch = new AtomicLong();

  private final ReentrantLock swapLock = new ReentrantLock();
  private final AtomicBoolean compactionRunning = new AtomicBoolean();
  private final AtomicBoolean compactionRequested = new AtomicBoolean();
  private volatile boolean closed;
  /** Created once: the write path allocates nothing per cell. */
  private final java.util.function.BooleanSupplier isClosed = () -> closed;

  private final AtomicLong inMemoryFlushes = new AtomicLong();
  private final AtomicLong flattens = new AtomicLong();
  private final AtomicLong merges = new AtomicLong();
  private final AtomicLong compactions = new AtomicLong();
  private final AtomicLong aborted = new AtomicLong();
  private final AtomicLong cellsEliminated = new AtomicLong();
  private final AtomicLong bytesEliminated = new AtomicLong();
  private final AtomicLong snapshots = new AtomicLong();
  private final AtomicLong bytesRelocated = new AtomicLong();

  /**
   * @param random uniform draws in [0, 1) for ADAPTIVE's throttle; pass a seeded source for
   *     reproducible decisions
   */
  public CompactingMemStore(MemStoreContext context, DoubleSupplier random) {
    this.context = context;
    MemStoreOptions options = context.options();
    this.policy = options.policy();
    if (policy == MemStorePolicy.NONE) {
      throw new IllegalArgumentException("policy NONE uses DefaultMemStore");
    }
    double a = options.inMemoryFlushFraction();
    this.inMemoryFlushThreshold = Math.max(1, (long) (a * context.flushSize()));
    this.maxPipelineSegments = options.pipelineMaxSegments();
    this.adaptive = new AdaptivePolicy(options.adaptiveThreshold(), random);
    this.segments = new SegmentFactory(context);
    this.compactor = new SegmentCompactor(segmentIds::incrementAndGet, segments);
    this.active = new AtomicReference<>(newActive());
  }

  /**
   * Footprint per row assumed when sizing the active segment's row filter: about one small cell per
   * row with its skiplist overhead. Rows of several cells, or bigger cells, leave it emptier.
   */
  private static final long ROW_FOOTPRINT_ESTIMATE = 128;

  private MutableSegment newActive() {
    return segments.newActive(segmentIds.incrementAndGet(), inMemoryFlushThreshold / ROW_FOOTPRINT_ESTIMATE);
  }

  /** Heap bytes of an active segment's row filter, charged with its first cell (0 without filters). */
  long activeRowFilterBytes() {
    return segments.rowFilter() ? ActiveRowFilter.heapBytesFor(inMemoryFlushThreshold / ROW_FOOTPRINT_ESTIMATE) : 0;
  }

  /** The resolved segment forms (MSLAB, index kinds), for tests and diagnostics. */
  SegmentFactory segmentFactory() {
    return segments;
  }

  public MemStorePolicy policy() {
    return policy;
  }

  // ------------------------------------------------------------------------------------ writes

  @Override
  public void add(Cell cell) {
    MutableSegment a = MutableSegment.addToActive(active, cell, accounting, isClosed);
    if (a.footprint() >= inMemoryFlushThreshold) {
      inMemoryFlush(a);
    }
  }

  @Override
  public void addAll(List<Cell> cells) {
    MutableSegment.addAllToActive(active, cells, accounting, isClosed, a -> {
      if (a.footprint() >= inMemoryFlushThreshold) {
        inMemoryFlush(a);
      }
    });
  }

  /** Swaps out a full active segment; a writer that finds another swap in progress just goes on. */
  private void inMemoryFlush(MutableSegment full) {
    if (!swapLock.tryLock()) {
      return;
    }
    try {
      if (closed || active.get() != full || full.footprint() < inMemoryFlushThreshold) {
        return; // another writer already flushed it, or a snapshot took it
      }
      swapActive(full, this::requestCompaction);
      inMemoryFlushes.incrementAndGet();
      adaptive.onInMemoryFlush();
    } finally {
      swapLock.unlock();
    }
  }

  /**
   * Moves the active segment to the pipeline: push (so it is never out of readers' sight), install a
   * fresh active segment, then seal the old one. Caller holds the swap lock.
   */
  private void swapActive(MutableSegment old, Runnable onSealed) {
    for (;;) {
      Pipeline p = pipeline.get();
      if (pipeline.compareAndSet(p, p.push(old))) {
        break;
      }
    }
    active.set(newActive());
    old.seal(onSealed);
  }

  // ------------------------------------------------------------------- in-memory compaction

  /** Schedules a compaction round unless one is running, in which case that one runs again. */
  private void requestCompaction() {
    compactionRequested.set(true);
    if (!closed && compactionRunning.compareAndSet(false, true)) {
      context.background().submit(this::runCompactions);
    }
  }

  /**
   * Runs compaction rounds while they are requested. Returns the new oldest unflushed sequence id
   * if the rounds raised it (the WAL may shrink), else {@link InMemoryWork#UNCHANGED}.
   */
  private long runCompactions() {
    long oldestBefore = oldestUnflushedSeqId();
    try {
      while (compactionRequested.getAndSet(false) && !closed) {
        compactOnce();
        context.listener().inMemoryCompactionDone();
      }
    } finally {
      compactionRunning.set(false);
    }
    // A request that arrived after the loop's last check but before the flag cleared.
    if (compactionRequested.get() && !closed && compactionRunning.compareAndSet(false, true)) {
      context.background().submit(this::runCompactions);
    }
    long oldestAfter = oldestUnflushedSeqId();
    return oldestAfter > oldestBefore && oldestAfter != Long.MAX_VALUE ? oldestAfter : InMemoryWork.UNCHANGED;
  }

  /** One round of the policy over the current pipeline. Package-private for tests. */
  void compactOnce() {
    switch (policy) {
      case BASIC -> {
        flattenSealed();
        List<Segment> tail = pipeline.get().stableTail();
        if (pipeline.get().segments.size() > maxPipelineSegments && tail.size() > 1) {
          mergeOrCompact(tail, false);
        }
      }
      case EAGER -> {
        List<Segment> tail = pipeline.get().stableTail();
        boolean fresh = tail.stream().anyMatch(s -> s instanceof MutableSegment);
        if (tail.size() > 1 || fresh) {
          mergeOrCompact(tail, true);
        }
      }
      case ADAPTIVE -> {
        flattenSealed();
        reduceAdaptively();
      }
      default -> throw new IllegalStateException(policy.name());
    }
  }

  private void flattenSealed() {
    for (Segment s : pipeline.get().stableTail()) {
      if (s instanceof MutableSegment m) {
        SegmentCompactor.Result r = compactor.flatten(m);
        if (install(List.of(m), r) && policy == MemStorePolicy.ADAPTIVE) {
          adaptive.observeUniqueness(r.uniqueness());
        }
        if (r.output() != null) {
          flattens.incrementAndGet();
        }
      }
    }
  }

  /**
   * ADAPTIVE beyond the paper: instead of rewriting the whole pipeline, reduce it one step at a
   * time by merging the adjacent pair of most alike footprints ({@link #mostAlikeAdjacentPair}),
   * deciding merge vs compact per step. A disk flush between steps ends the batch.
   */
  private void reduceAdaptively() {
    long epoch = diskFlushEpoch.get();
    while (!closed && diskFlushEpoch.get() == epoch) {
      Pipeline p = pipeline.get();
      List<Segment> tail = p.stableTail();
      if (p.segments.size() <= maxPipelineSegments || tail.size() < 2) {
        return;
      }
      int best = mostAlikeAdjacentPair(tail);
      if (!mergeOrCompact(List.of(tail.get(best), tail.get(best + 1)), adaptive.shouldCompact())) {
        return;
      }
    }
  }

  /**
   * Where the adjacent pair of segments whose footprints are most alike (the smallest ratio of the
   * larger to the smaller; of equal ratios, the smallest pair) starts. Merging alike sizes keeps a
   * cell's rewrites few, as a binary counter does: with the pipeline held at 5 segments over 75
   * in-memory flushes, a cell is rewritten 4.7 times on average, against 6.5 when the smallest
   * pair is merged (which keeps folding new segments into one that grows), and 6.1 against 12 over
   * 150 flushes. Its own method: with this loop inline, the step loop above was compiled on stack
   * with a whole merge and compaction inlined.
   */
  static int mostAlikeAdjacentPair(List<Segment> tail) {
    long[] footprints = new long[tail.size()];
    for (int i = 0; i < footprints.length; i++) {
      footprints[i] = tail.get(i).stats().footprint();
    }
    return mostAlikeAdjacentPair(footprints);
  }

  /** {@link #mostAlikeAdjacentPair(List)} over the segments' footprints. */
  static int mostAlikeAdjacentPair(long[] footprints) {
    int best = 0;
    double bestRatio = Double.MAX_VALUE;
    long bestSize = Long.MAX_VALUE;
    for (int i = 0; i + 1 < footprints.length; i++) {
      long a = Math.max(1, footprints[i]);
      long b = Math.max(1, footprints[i + 1]);
      double ratio = (double) Math.max(a, b) / Math.min(a, b);
      long size = a + b;
      if (ratio < bestRatio || (ratio == bestRatio && size < bestSize)) {
        bestRatio = ratio;
        bestSize = size;
        best = i;
      }
    }
    return best;
  }

  /** Merges or compacts {@code run} into one segment and installs it; false if it aborted. */
  private boolean mergeOrCompact(List<Segment> run, boolean compact) {
    SegmentCompactor.Result r =
        compact ? compactor.compact(run, context.redundancyFilter().get()) : compactor.merge(run);
    boolean ok = install(run, r);
    if (ok) {
      if (!compact || policy == MemStorePolicy.ADAPTIVE) {
        adaptive.observeUniqueness(r.uniqueness());
      }
      (compact ? compactions : merges).incrementAndGet();
      bytesRelocated.addAndGet(r.relocatedBytes());
    }
    return ok;
  }

  /**
   * Replaces {@code run} by the result if the run is still in the pipeline (same segment objects);
   * otherwise (a snapshot took it) drops the result. Adjusts the accounting by exactly the
   * difference and tells the listener if the oldest unflushed sequence id rose.
   *
   * <p>The replacement and the accounting change happen together under {@link #swapLock}, which a
   * snapshot holds: a snapshot taken between them took the result and subtracted its size when
   * released, and the change applied afterwards left the store counting the cells the compaction
   * dropped although it held none. A close, which flushes until the count is zero, then failed
   * ("still holds data in memory after flushing three times"; seen once in PowerLossTest).
   */
  private boolean install(List<Segment> run, SegmentCompactor.Result r) {
    ImmutableSegment out = r.output();
    if (out == null) {
      aborted.incrementAndGet();
      return false;
    }
    List<SegmentStats> in = new ArrayList<>(run.size());
    run.forEach(s -> in.add(s.stats()));
    SegmentStats before = SegmentStats.union(in, in.stream().mapToLong(SegmentStats::indexBytes).sum());
    SegmentStats after = out.stats();
    swapLock.lock();
    try {
      Pipeline p = pipeline.get();
      Pipeline next = p.replace(run, out);
      if (next == null) {
        aborted.incrementAndGet();
        out.release();
        return false;
      }
      pipeline.set(next);
      context.listener().compactionReplacing();
      accounting.change(before, after);
    } finally {
      swapLock.unlock();
    }
    long dropped = before.cellCount() - after.cellCount();
    if (dropped > 0) {
      cellsEliminated.addAndGet(dropped);
      bytesEliminated.addAndGet(before.dataBytes() - after.dataBytes());
    }
    run.forEach(Segment::release);
    return true;
  }

  // --------------------------------------------------------------------------------- reads

  @Override
  public List<CellScanner> scanners() {
    for (;;) {
      List<Segment> segs = new ArrayList<>();
      segs.add(active.get());
      segs.addAll(pipeline.get().segments);
      segs.addAll(snapshotSegments);
      List<CellScanner> out = new ArrayList<>(segs.size());
      boolean freed = false;
      for (Segment s : segs) {
        CellScanner sc = s.tryScanner();
        if (sc == null) {
          freed = true; // replaced and freed meanwhile: its replacement is in the current state
          break;
        }
        out.add(sc);
      }
      if (!freed) {
        return out;
      }
      out.forEach(CellScanner::close);
      if (closed) {
        throw new io.bellows.util.SourceClosedException("memory store is closed"); // nothing to read again
      }
    }
  }

  @Override
  public MemStoreSize size() {
    return accounting.size();
  }

  @Override
  public long oldestUnflushedSeqId() {
    long min = active.get().stats().minSeqId();
    for (Segment s : pipeline.get().segments) {
      min = Math.min(min, s.stats().minSeqId());
    }
    for (Segment s : snapshotSegments) {
      min = Math.min(min, s.stats().minSeqId());
    }
    return min;
  }

  // --------------------------------------------------------------------------- disk flush

  @Override
  public FlushSnapshot snapshot() {
    swapLock.lock();
    try {
      if (closed) {
        throw new IllegalStateException("memory store is closed");
      }
      if (snapshot != null) {
        throw new IllegalStateException("previous snapshot " + snapshot.id() + " was not released");
      }
      MutableSegment a = active.get();
      if (a.cellCount() > 0) {
        swapActive(a, null);
      }
      List<Segment> taken;
      for (;;) {
        Pipeline p = pipeline.get();
        taken = p.segments;
        snapshotSegments = taken; // publish before the pipeline lets go of them
        if (pipeline.compareAndSet(p, p.cleared())) {
          break;
        }
      }
      diskFlushEpoch.incrementAndGet();
      adaptive.onDiskFlush();
      snapshots.incrementAndGet();
      for (Segment s : taken) {
        if (s instanceof MutableSegment m) {
          m.awaitSealed(); // in-flight adds finish within microseconds
        }
      }
      MemStoreSnapshot snap = new MemStoreSnapshot(snapshotIds.incrementAndGet(), taken);
      if (!taken.isEmpty()) {
        snapshot = snap;
      }
      return snap;
    } finally {
      swapLock.unlock();
    }
  }

  @Override
  public void releaseSnapshot(FlushSnapshot flushed) {
    swapLock.lock();
    try {
      MemStoreSnapshot snap = snapshot;
      if (flushed.cellCount() == 0 && flushed != snap) {
        return; // an empty snapshot holds nothing
      }
      if (flushed != snap) {
        throw new IllegalStateException(flushed + " is not the current snapshot");
      }
      snapshot = null;
      snapshotSegments = List.of();
      accounting.subtract(snap.size());
      snap.segments().forEach(Segment::release);
    } finally {
      swapLock.unlock();
    }
  }

  // ------------------------------------------------------------------------------ metrics

  @Override
  public List<SegmentInfo> segments() {
    List<SegmentInfo> out = new ArrayList<>();
    out.add(SegmentInfo.active(active.get()));
    for (Segment s : pipeline.get().segments) {
      out.add(SegmentInfo.of(SegmentInfo.Place.PIPELINE, s));
    }
    for (Segment s : snapshotSegments) {
      out.add(SegmentInfo.of(SegmentInfo.Place.SNAPSHOT, s));
    }
    return out;
  }

  @Override
  public Map<String, Number> metrics() {
    Map<String, Number> m = new LinkedHashMap<>();
    MutableSegment a = active.get();
    Pipeline p = pipeline.get();
    List<Segment> snap = snapshotSegments;
    Map<SegmentKind, Long> byKind = new EnumMap<>(SegmentKind.class);
    byKind.merge(a.kind(), a.footprint(), Long::sum);
    long pipelineBytes = 0;
    for (Segment s : p.segments) {
      long f = s.stats().footprint();
      pipelineBytes += f;
      byKind.merge(s.kind(), f, Long::sum);
    }
    long snapshotBytes = 0;
    for (Segment s : snap) {
      long f = s.stats().footprint();
      snapshotBytes += f;
      byKind.merge(s.kind(), f, Long::sum);
    }
    MemStoreSize total = accounting.size();
    m.put("memstore.data.bytes", total.dataBytes());
    m.put("memstore.overhead.bytes", total.overheadBytes());
    m.put("memstore.cells", total.cellCount());
    m.put("memstore.active.bytes", a.footprint());
    m.put("memstore.pipeline.bytes", pipelineBytes);
    m.put("memstore.snapshot.bytes", snapshotBytes);
    m.put("memstore.pipeline.segments", p.segments.size());
    m.put("memstore.pipeline.version", p.version);
    for (SegmentKind k : SegmentKind.values()) {
      m.put("memstore.footprint." + k.name().toLowerCase(), byKind.getOrDefault(k, 0L));
    }
    m.put("memstore.in.memory.flushes", inMemoryFlushes.get());
    m.put("memstore.flattens", flattens.get());
    m.put("memstore.merges", merges.get());
    m.put("memstore.compactions", compactions.get());
    m.put("memstore.compactions.aborted", aborted.get());
    m.put("memstore.cells.eliminated", cellsEliminated.get());
    m.put("memstore.bytes.eliminated", bytesEliminated.get());
    m.put("memstore.snapshots", snapshots.get());
    m.put("memstore.bytes.relocated", bytesRelocated.get());
    m.put("memstore.offheap.bytes", total.offHeapBytes());
    MemStoreMetrics.putChunks(m, segments);
    m.put("memstore.adaptive.throttle", adaptive.throttle());
    m.put("memstore.adaptive.uniqueness", adaptive.uniqueness());
    return m;
  }

  // -------------------------------------------------------------------------------- close

  @Override
  public void close() {
    swapLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      MutableSegment a = active.get();
      a.seal(null);
      a.awaitSealed();
      List<Segment> all = new ArrayList<>();
      all.add(a);
      all.addAll(pipeline.getAndSet(pipeline.get().cleared()).segments);
      all.addAll(snapshotSegments);
      snapshotSegments = List.of();
      snapshot = null;
      for (Segment s : all) {
        if (s instanceof MutableSegment m) {
          m.awaitSealed();
        }
        accounting.subtract(s.stats().size());
        s.release();
      }
    } finally {
      swapLock.unlock();
    }
  }
}
