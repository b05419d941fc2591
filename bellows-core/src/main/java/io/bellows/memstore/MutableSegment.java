package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.memstore.chunk.ChunkEntryCursor;
import io.bellows.memstore.chunk.MemStoreLab;
import io.bellows.scan.CellScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.util.RefCounted;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The active segment: absorbs concurrent writes into an {@link ActiveIndex} and keeps its stats
 * incrementally (atomics and adders; never a walk).
 *
 * <p>State machine: {@code OPEN → SEALING → SEALED}. A writer {@link #tryEnter enters} the segment
 * before adding and {@link #exit exits} after; {@link #seal} closes the door to new writers
 * (SEALING), and the segment becomes SEALED when the last writer inside leaves (or at once if none
 * is inside). Whoever makes that last step runs the seal callback, so nobody ever waits for writers;
 * only {@link #awaitSealed} (used by a disk snapshot) blocks, for the few instructions an in-flight
 * add takes. Once SEALED the index and stats never change again.
 *
 * <p>Invariant: stats are updated before a cell becomes visible in the index (ranges) and counters
 * right after, so any cell a reader can see lies within the segment's key, time and seqId ranges.
 *
 * <p>Thread-safety: fully thread-safe.
 */
public final class MutableSegment extends Segment {
  /** The states of the seal state machine. */
  public enum State { OPEN, SEALING, SEALED }

  private static final int SEAL_BIT = 1 << 30;

  private final ActiveIndex index;
  /** In-flight writers in the low bits, {@link #SEAL_BIT} once sealing started. */
  private final AtomicInteger gate = new AtomicInteger();
  private final CountDownLatch sealedLatch = new CountDownLatch(1);
  private volatile Runnable onSealed;

  private final AtomicReference<Cell> firstRow = new AtomicReference<>();
  private final AtomicReference<Cell> lastRow = new AtomicReference<>();
  private final AtomicLong minTs = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong maxTs = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong minSeq = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong maxSeq = new AtomicLong(0);
  private final LongAdder cells = new LongAdder();
  private final LongAdder dataBytes = new LongAdder();
  private final LongAdder objectBytes = new LongAdder();
  private final LongAdder indexBytes = new LongAdder();
  private final LongAdder offHeapBytes = new LongAdder();
  /** Whether cells read from the index view heap chunk memory (and must be copied on the way out). */
  private final boolean chunkViews;

  /** Rows of the cells added, for gets; null for none. Charged to the index bytes with the first cell. */
  private final ActiveRowFilter rowFilter;
  private final AtomicBoolean rowFilterCharged = new AtomicBoolean();

  /** A segment over {@code index}, which it owns (freed with the segment's last reference). */
  public MutableSegment(long id, ActiveIndex index) {
    this(id, index, null);
  }

  /** A segment over {@code index} with a row filter for gets (or none if {@code rowFilter} is null). */
  MutableSegment(long id, ActiveIndex index, ActiveRowFilter rowFilter) {
    super(id);
    this.index = index;
    this.chunkViews = index.lab() != null && !index.lab().allocator().offHeap();
    this.rowFilter = rowFilter;
  }

  ActiveIndex index() {
    return index;
  }

  /**
   * Adds a cell to whichever segment {@code active} holds: enters it, adds, leaves. If a swap sealed
   * the segment meanwhile, retries on its successor (installed before the seal). Throws once the
   * owner is closed, so a writer never spins on a sealed segment without successor. Returns the
   * segment written to.
   */
  static MutableSegment addToActive(AtomicReference<MutableSegment> active, Cell cell,
      MemStoreAccounting accounting, BooleanSupplier ownerClosed) {
    return writeToActive(active, ownerClosed, a -> a.add(cell, accounting));
  }

  /**
   * Cells added per entry into the active segment by {@link #addAllToActive}: small enough that the
   * segment overshoots its in-memory flush threshold by little and a swap never waits long for the
   * writer.
   */
  static final int ADD_SLICE = 128;

  /**
   * Adds {@code cells}, in order, to whichever segment {@code active} holds: as {@link #addToActive}
   * of each cell, but entering the segment and updating the segment's and the store's counters once
   * per slice of {@link #ADD_SLICE} cells (a segment cannot seal while a writer is inside, so slices
   * stay short). {@code afterSlice} gets the segment each slice went to.
   */
  static void addAllToActive(AtomicReference<MutableSegment> active, List<Cell> cells,
      MemStoreAccounting accounting, BooleanSupplier ownerClosed, Consumer<MutableSegment> afterSlice) {
    for (int from = 0; from < cells.size(); from += ADD_SLICE) {
      List<Cell> slice = cells.subList(from, Math.min(cells.size(), from + ADD_SLICE));
      afterSlice.accept(writeToActive(active, ownerClosed, a -> a.addAll(slice, accounting)));
    }
  }

  /**
   * Enters the active segment (its successor if it was sealed meanwhile), writes, leaves: the one
   * copy of the write loop of every memory store.
   */
  private static MutableSegment writeToActive(AtomicReference<MutableSegment> active, BooleanSupplier ownerClosed,
      Consumer<MutableSegment> write) {
    for (;;) {
      if (ownerClosed.getAsBoolean()) {
        throw new IllegalStateException("memory store is closed");
      }
      MutableSegment a = active.get();
      if (!a.tryEnter()) {
        continue; // sealed: its successor is already installed
      }
      try {
        write.accept(a);
      } finally {
        a.exit();
      }
      return a;
    }
  }

  /** Lets a writer in unless sealing has started; a true return must be paired with {@link #exit}. */
  public boolean tryEnter() {
    for (;;) {
      int g = gate.get();
      if ((g & SEAL_BIT) != 0) {
        return false;
      }
      if (gate.compareAndSet(g, g + 1)) {
        return true;
      }
    }
  }

  /** A writer leaves; the last one out of a sealing segment seals it. */
  public void exit() {
    if (gate.decrementAndGet() == SEAL_BIT) {
      finishSeal();
    }
  }

  /**
   * Adds a cell (the caller has entered) and charges it to the segment and to {@code accounting}.
   * Returns false if the same write was already present.
   */
  public boolean add(Cell c, MemStoreAccounting accounting) {
    widenRanges(c);
    if (rowFilter != null) {
      rowFilter.addRow(c.array(), c.rowOffset(), c.rowLength()); // before the cell can be seen
    }
    long idx = index.add(c);
    if (idx < 0) {
      return false;
    }
    long data = c.dataSize();
    charge(1, data, index.cellObjectBytes(c), idx, offHeapPart(data, idx), accounting);
    return true;
  }

  /** {@link #add} of each cell, with the counters updated once at the end (the caller has entered). */
  void addAll(List<Cell> batch, MemStoreAccounting accounting) {
    long added = 0;
    long data = 0;
    long objects = 0;
    long idxBytes = 0;
    long off = 0;
    try {
      Cell prev = null;
      for (Cell c : batch) {
        widenRanges(c);
        if (rowFilter != null && (prev == null || !c.sameRow(prev))) {
          rowFilter.addRow(c.array(), c.rowOffset(), c.rowLength()); // before the cell can be seen
        }
        prev = c;
        long idx = index.add(c);
        if (idx < 0) {
          continue;
        }
        long d = c.dataSize();
        added++;
        data += d;
        objects += index.cellObjectBytes(c);
        idxBytes += idx;
        off += offHeapPart(d, idx);
      }
    } finally {
      // Also when an insert failed part way: what was inserted is charged.
      charge(added, data, objects, idxBytes, off, accounting);
    }
  }

  /** Of a cell's data and index bytes, those that live off the heap. */
  private long offHeapPart(long data, long idx) {
    return (index.dataOffHeap() ? data : 0) + (index.indexOffHeap() ? idx : 0);
  }

  /** Charges {@code added} cells to the segment's counters and to the store's accounting. */
  private void charge(long added, long data, long objects, long idx, long off, MemStoreAccounting accounting) {
    if (rowFilter != null && added > 0 && !rowFilterCharged.get() && rowFilterCharged.compareAndSet(false, true)) {
      idx += rowFilter.heapBytes(); // with the first cell, so that an empty segment weighs nothing
    }
    cells.add(added);
    dataBytes.add(data);
    objectBytes.add(objects);
    indexBytes.add(idx);
    if (off != 0) {
      offHeapBytes.add(off);
    }
    accounting.add(data, objects + idx, off, added);
  }

  private void widenRanges(Cell c) {
    Cell f = firstRow.get();
    while (f == null || CellComparator.compareRows(c, f) < 0) {
      if (firstRow.compareAndSet(f, c)) {
        break;
      }
      f = firstRow.get();
    }
    Cell l = lastRow.get();
    while (l == null || CellComparator.compareRows(c, l) > 0) {
      if (lastRow.compareAndSet(l, c)) {
        break;
      }
      l = lastRow.get();
    }
    long ts = c.timestamp();
    if (ts < minTs.get()) {
      minTs.accumulateAndGet(ts, Math::min);
    }
    if (ts > maxTs.get()) {
      maxTs.accumulateAndGet(ts, Math::max);
    }
    long seq = c.seqId();
    if (seq < minSeq.get()) {
      minSeq.accumulateAndGet(seq, Math::min);
    }
    if (seq > maxSeq.get()) {
      maxSeq.accumulateAndGet(seq, Math::max);
    }
  }

  /**
   * Starts sealing: no writer enters any more. {@code callback} runs once the segment is SEALED, on
   * the thread that makes it so (this one if no writer is inside). Only the first call has effect.
   */
  public void seal(Runnable callback) {
    if ((gate.get() & SEAL_BIT) != 0) {
      return; // callers serialize sealing (the store's swap lock), so this is a repeated call
    }
    this.onSealed = callback;
    int before = gate.getAndUpdate(g -> g | SEAL_BIT);
    if (before == 0) {
      finishSeal(); // nobody inside: sealed at once
    }
  }

  private void finishSeal() {
    sealedLatch.countDown();
    Runnable r = onSealed;
    if (r != null) {
      r.run();
    }
  }

  /** Blocks until every writer that entered before {@link #seal} has left. */
  public void awaitSealed() {
    boolean interrupted = false;
    for (;;) {
      try {
        sealedLatch.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true; // an add takes microseconds; finish the wait, then restore the flag
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  public State state() {
    if ((gate.get() & SEAL_BIT) == 0) {
      return State.OPEN;
    }
    return sealedLatch.getCount() == 0 ? State.SEALED : State.SEALING;
  }

  @Override
  public boolean isStable() {
    return state() == State.SEALED;
  }

  /** Data plus overhead, read from the adders (cheap: no walk). */
  public long footprint() {
    return dataBytes.sum() + objectBytes.sum() + indexBytes.sum();
  }

  public long cellCount() {
    return cells.sum();
  }

  @Override
  public SegmentKind kind() {
    return index.kind();
  }

  @Override
  public SegmentStats stats() {
    return new SegmentStats(firstRow.get(), lastRow.get(), minTs.get(), maxTs.get(), minSeq.get(), maxSeq.get(),
        cells.sum(), dataBytes.sum(), objectBytes.sum(), indexBytes.sum(), offHeapBytes.sum());
  }

  /**
   * The segment's ranges, read from the atomics ({@link #stats()} would sum every counter on each
   * get), then for a get the row filter.
   */
  @Override
  boolean mayMatch(ScanQuery query) {
    // A get asks the row filter first: it rules out most rows with one cache line, while the range
    // checks read the atomics every writer updates (maxTs at each newer timestamp, lines other cores
    // keep taking) and the first and last rows' cells in their chunks.
    if (rowFilter != null && query.isSingleRow() && !rowFilter.mightContainHash(query.rowHash())) {
      return false;
    }
    return SegmentStats.mayMatch(firstRow.get(), lastRow.get(), minSeq.get(), maxTs.get(), query);
  }

  /**
   * From its atomic, which a writer raises before its cell enters the index: a reader sees a cell
   * only once its sequence id is visible, after the insert, so the value read then covers it.
   */
  @Override
  long newestTimestamp() {
    return maxTs.get();
  }

  @Override
  protected CellScanner cursor() {
    return new ActiveIndexScanner(index);
  }

  @Override
  boolean chunkViews() {
    return chunkViews;
  }

  @Override
  List<RefCounted> dataHolders() {
    MemStoreLab lab = index.lab();
    return lab == null ? List.of() : List.of(lab);
  }

  @Override
  ChunkEntryCursor entries() {
    return index.entries();
  }

  /** Whether the cells' bytes were copied into an MSLAB (else they are the writers' arrays). */
  boolean hasLab() {
    return index.lab() != null;
  }

  /** Frees the index and the lab (chunks go back to the pool), after the last reader. */
  @Override
  protected void deallocate() {
    index.free();
  }
}
