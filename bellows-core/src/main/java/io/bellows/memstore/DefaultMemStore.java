package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.scan.CellScanner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The classic memory store (policy NONE): one active segment; {@link #snapshot} moves it to the
 * snapshot and starts a new one. No in-memory compaction, so only {@code MSLAB} and {@code
 * ACTIVE_INDEX} matter (object or chunk skiplist, cells in writers' arrays or in chunks); {@code
 * SEGMENT_INDEX} is irrelevant (nothing is ever flattened) but a CHUNK request still implies MSLAB.
 *
 * <p>Thread-safety: {@link #add} and {@link #scanners} from any thread, lock-free; snapshot, release
 * and close are synchronized with each other. The snapshot is published before the new active
 * segment, so a reader taking the active segment and then the snapshot sees every cell.
 */
public final class DefaultMemStore implements MemStore {
  private final MemStoreAccounting accounting = new MemStoreAccounting();
  private final AtomicLong segmentIds = new AtomicLong();
  private final AtomicReference<MutableSegment> active;
  private volatile MemStoreSnapshot snapshot;
  private volatile List<Segment> snapshotSegments = List.of();
  private final AtomicLong snapshotIds = new AtomicLong();
  private volatile boolean closed;
  /** Created once: the write path allocates nothing per cell. */
  private final java.util.function.BooleanSupplier isClosed = () -> closed;
  private final SegmentFactory segments;

  public DefaultMemStore(MemStoreContext context) {
    this.segments = new SegmentFactory(context);
    this.active = new AtomicReference<>(newActive());
  }

  private MutableSegment newActive() {
    return segments.newActive(segmentIds.incrementAndGet());
  }

  @Override
  public void add(Cell cell) {
    MutableSegment.addToActive(active, cell, accounting, isClosed);
  }

  @Override
  public void addAll(List<Cell> cells) {
    MutableSegment.addAllToActive(active, cells, accounting, isClosed, a -> { });
  }

  @Override
  public MemStoreSize size() {
    return accounting.size();
  }

  @Override
  public List<CellScanner> scanners() {
    for (;;) {
      List<Segment> segs = new ArrayList<>(2);
      segs.add(active.get());
      segs.addAll(snapshotSegments);
      List<CellScanner> out = new ArrayList<>(segs.size());
      for (Segment s : segs) {
        CellScanner sc = s.tryScanner();
        if (sc == null) {
          break;
        }
        out.add(sc);
      }
      if (out.size() == segs.size()) {
        return out;
      }
      out.forEach(CellScanner::close); // a released snapshot: read again
      if (closed) {
        throw new io.bellows.util.SourceClosedException("memory store is closed"); // nothing to read again
      }
    }
  }

  @Override
  public synchronized FlushSnapshot snapshot() {
    if (closed) {
      throw new IllegalStateException("memory store is closed");
    }
    if (snapshot != null) {
      throw new IllegalStateException("previous snapshot " + snapshot.id() + " was not released");
    }
    MutableSegment a = active.get();
    if (a.cellCount() == 0) {
      return new MemStoreSnapshot(snapshotIds.incrementAndGet(), List.of());
    }
    snapshotSegments = List.of(a);
    active.set(newActive());
    a.seal(null);
    a.awaitSealed();
    MemStoreSnapshot snap = new MemStoreSnapshot(snapshotIds.incrementAndGet(), List.of(a));
    snapshot = snap;
    return snap;
  }

  @Override
  public synchronized void releaseSnapshot(FlushSnapshot flushed) {
    MemStoreSnapshot snap = snapshot;
    if (flushed.cellCount() == 0 && flushed != snap) {
      return;
    }
    if (flushed != snap) {
      throw new IllegalStateException(flushed + " is not the current snapshot");
    }
    snapshot = null;
    snapshotSegments = List.of();
    accounting.subtract(snap.size());
    snap.segments().forEach(Segment::release);
  }

  @Override
  public long oldestUnflushedSeqId() {
    long min = active.get().stats().minSeqId();
    for (Segment s : snapshotSegments) {
      min = Math.min(min, s.stats().minSeqId());
    }
    return min;
  }

  @Override
  public List<SegmentInfo> segments() {
    List<SegmentInfo> out = new ArrayList<>();
    out.add(SegmentInfo.active(active.get()));
    for (Segment s : snapshotSegments) {
      out.add(SegmentInfo.of(SegmentInfo.Place.SNAPSHOT, s));
    }
    return out;
  }

  @Override
  public Map<String, Number> metrics() {
    Map<String, Number> m = new LinkedHashMap<>();
    MemStoreSize total = accounting.size();
    long snapBytes = 0;
    for (Segment s : snapshotSegments) {
      snapBytes += s.stats().footprint();
    }
    m.put("memstore.data.bytes", total.dataBytes());
    m.put("memstore.overhead.bytes", total.overheadBytes());
    m.put("memstore.cells", total.cellCount());
    m.put("memstore.active.bytes", active.get().footprint());
    m.put("memstore.snapshot.bytes", snapBytes);
    m.put("memstore.offheap.bytes", total.offHeapBytes());
    MemStoreMetrics.putChunks(m, segments);
    return m;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    MutableSegment a = active.get();
    a.seal(null);
    a.awaitSealed();
    List<Segment> all = new ArrayList<>(snapshotSegments);
    all.add(a);
    snapshotSegments = List.of();
    snapshot = null;
    for (Segment s : all) {
      accounting.subtract(s.stats().size());
      s.release();
    }
  }
}
