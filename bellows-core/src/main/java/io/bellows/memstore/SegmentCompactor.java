package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.memstore.chunk.ChunkCellComparator;
import io.bellows.memstore.chunk.ChunkCellIndex;
import io.bellows.memstore.chunk.ChunkEntryCursor;
import io.bellows.memstore.chunk.MemStoreLab;
import io.bellows.scan.CellScanner;
import io.bellows.scan.MergingScanner;
import io.bellows.scan.RetentionFilter;
import io.bellows.util.Bytes;
import io.bellows.util.RefCounted;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Builds one new immutable segment from stable input segments, walking their merged sorted run
 * once: <b>flatten</b> (one mutable segment's skiplist becomes a flat index; no data copied),
 * <b>merge</b> (several indexes become one; no data copied, nothing dropped but exact duplicates)
 * and <b>compact</b> (a {@link RetentionFilter} drops redundant cells). While walking it counts
 * distinct columns (row, family, qualifier), which gives ADAPTIVE its uniqueness estimate at no
 * extra cost. The inputs are not changed; the caller installs the result or drops it.
 *
 * <p>Chunk-backed stores ({@link SegmentFactory#mslab()} or {@link SegmentFactory#chunkFlat()}):
 *
 * <ul>
 *   <li>flatten/merge into a <b>cell array</b>: the array's cells view the inputs' chunks, so the
 *       output retains the inputs' data holders (their MSLABs) — no copy;
 *   <li>flatten/merge into a <b>chunk index</b> of inputs whose cells are in chunks: entries (chunk
 *       id, offset, length, seqId) are read from the inputs' chunk structures without materializing
 *       cells and written into a new {@link ChunkCellIndex}, which retains the data chunks itself —
 *       no copy;
 *   <li>flatten into a <b>chunk index</b> of an active segment that kept the writers' arrays (no
 *       MSLAB): the cells are copied into a fresh MSLAB in key order, as a compaction that keeps
 *       everything — the one copy of the data, on the background thread rather than the writers';
 *   <li><b>compact</b> relocates the survivors into a fresh MSLAB (jumbo cells included), so the
 *       output never points into the inputs' chunks and those go back to the pool once the inputs
 *       are freed: this is what actually returns the memory of eliminated cells.
 * </ul>
 *
 * <p>The output's lab and index are told their input's size, so their last chunk is sized to what
 * is left rather than a whole pooled chunk.
 *
 * <p>Stateless apart from the id source; the caller runs one operation at a time per store.
 */
final class SegmentCompactor {
  /** What one operation produced. {@code output} is null if an input was freed meanwhile. */
  record Result(ImmutableSegment output, long inputCells, long distinctColumns, long relocatedBytes) {
    Result(ImmutableSegment output, long inputCells, long distinctColumns) {
      this(output, inputCells, distinctColumns, 0);
    }

    /** Fraction of input cells that are the first of their column: 1 means all unique. */
    double uniqueness() {
      return inputCells == 0 ? 1.0 : (double) distinctColumns / inputCells;
    }
  }

  private final LongSupplier ids;
  private final SegmentFactory factory;

  SegmentCompactor(LongSupplier ids, SegmentFactory factory) {
    this.ids = ids;
    this.factory = factory;
  }

  /** Flattens one sealed segment. */
  Result flatten(Segment in) {
    return merge(List.of(in));
  }

  /**
   * Merges the indexes of stable segments into one flat index, keeping every cell (but exact
   * duplicates). Into a chunk index, cells that are not in chunks yet (an active segment's, without
   * MSLAB) are first copied there, in order.
   */
  Result merge(List<Segment> inputs) {
    if (!factory.chunkFlat()) {
      return mergeIntoArray(inputs);
    }
    return inChunks(inputs) ? mergeEntries(inputs) : compact(inputs, KEEP_ALL);
  }

  private static final RetentionFilter KEEP_ALL = c -> true;

  /** Whether every input's cells live in chunks (a chunk index, or an active segment with an MSLAB). */
  private static boolean inChunks(List<Segment> inputs) {
    for (Segment s : inputs) {
      boolean chunked = s.kind() == SegmentKind.CHUNK || s.kind() == SegmentKind.CHUNK_SKIPLIST
          || (s instanceof MutableSegment m && m.hasLab());
      if (!chunked) {
        return false;
      }
    }
    return true;
  }

  private static long dataBytes(List<Segment> inputs) {
    long n = 0;
    for (Segment s : inputs) {
      n += s.stats().dataBytes();
    }
    return n;
  }

  private static long cellCount(List<Segment> inputs) {
    long n = 0;
    for (Segment s : inputs) {
      n += s.stats().cellCount();
    }
    return n;
  }

  private Result mergeIntoArray(List<Segment> inputs) {
    long n = cellCount(inputs);
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("segment of " + n + " cells is too large for an array index");
    }
    CellScanner run = open(inputs);
    if (run == null) {
      return new Result(null, n, 0);
    }
    Cell[] out = new Cell[(int) n];
    SegmentStats.Accumulator acc = new SegmentStats.Accumulator();
    boolean views = factory.mslab();
    int i = 0;
    long distinct = 0;
    List<RefCounted> holds = new ArrayList<>();
    SegmentRowFilter.Builder rows = rowFilterBuilder();
    try {
      Cell prev = null;
      for (Cell c = run.next(); c != null; c = run.next()) {
        int relation = prev == null ? Cell.OTHER_ROW : prev.columnRelation(c);
        if (relation != Cell.SAME_COLUMN) {
          distinct++;
        }
        if (rows != null && relation == Cell.OTHER_ROW) {
          rows.addRow(c.array(), c.rowOffset(), c.rowLength(), i); // rows come grouped: hash each once
        }
        out[i++] = c;
        acc.add(c, views ? MemoryLayout.CELL_OBJECT : MemoryLayout.cellObjectBytes(c));
        prev = c;
      }
      // The array's cells view the inputs' chunks: keep those alive as long as the output.
      Set<RefCounted> seen = Collections.newSetFromMap(new IdentityHashMap<>());
      for (Segment s : inputs) {
        for (RefCounted h : s.dataHolders()) {
          if (seen.add(h)) {
            h.retain();
            holds.add(h);
          }
        }
      }
    } finally {
      run.close();
    }
    CellArrayIndex index = new CellArrayIndex(out, i);
    SegmentRowFilter filter = build(rows);
    SegmentStats stats = acc.build(index.indexBytes() + heapBytes(filter), 0, views);
    return new Result(new ImmutableSegment(ids.getAsLong(), index, stats, holds, factory.heapViews(), filter), n,
        distinct);
  }

  /** Merge into a chunk index over the same data chunks, reading positions, not cells. */
  private Result mergeEntries(List<Segment> inputs) {
    long n = cellCount(inputs);
    List<Segment> held = new ArrayList<>(inputs.size());
    for (Segment s : inputs) {
      if (!s.tryRetain()) {
        held.forEach(Segment::release);
        return new Result(null, n, 0);
      }
      held.add(s);
    }
    ChunkCellIndex.Builder builder = ChunkCellIndex.builder(factory.chunks(), n);
    List<SegmentStats> parts = new ArrayList<>(inputs.size());
    long distinct = 0;
    long dups = 0;
    long dupBytes = 0;
    ChunkCellIndex index;
    SegmentRowFilter.Builder rows = rowFilterBuilder();
    try {
      ChunkEntryCursor[] cursors = new ChunkEntryCursor[inputs.size()];
      for (int k = 0; k < cursors.length; k++) {
        Segment s = inputs.get(k);
        parts.add(s.stats());
        cursors[k] = s.entries();
        if (cursors[k] == null) {
          throw new IllegalStateException(s + " does not live in chunks; cannot merge it into a chunk index");
        }
      }
      ByteBuffer prevBuf = null;
      int prevOff = 0;
      int entries = 0; // added to the index so far: the next entry's position
      long prevSeq = 0;
      for (;;) {
        ChunkEntryCursor min = null;
        for (ChunkEntryCursor c : cursors) {
          if (c.valid() && (min == null || ChunkCellComparator.compare(
              c.buffer(), c.offset(), c.seqId(), min.buffer(), min.offset(), min.seqId()) < 0)) {
            min = c;
          }
        }
        if (min == null) {
          break;
        }
        ByteBuffer buf = min.buffer();
        int off = min.offset();
        long seq = min.seqId();
        int relation = prevBuf == null ? Cell.OTHER_ROW : columnRelation(prevBuf, prevOff, buf, off);
        // The same write twice (replayed) is the same column with the same sequence id and key.
        if (relation == Cell.SAME_COLUMN && seq == prevSeq
            && ChunkCellComparator.compare(prevBuf, prevOff, prevSeq, buf, off, seq) == 0) {
          dups++; // keep one, as readers would
          dupBytes += min.length();
          min.advance();
          continue;
        }
        if (relation != Cell.SAME_COLUMN) {
          distinct++;
        }
        builder.add(min.chunkId(), off, min.length(), seq);
        if (rows != null && relation == Cell.OTHER_ROW) {
          rows.addRow(buf, off, entries);
        }
        entries++;
        prevBuf = buf;
        prevOff = off;
        prevSeq = seq;
        min.advance();
      }
      index = builder.build();
    } catch (RuntimeException | Error e) {
      builder.abort();
      throw e;
    } finally {
      held.forEach(Segment::release);
    }
    SegmentRowFilter filter = build(rows);
    SegmentStats u = SegmentStats.union(parts, index.indexBytes());
    long data = u.dataBytes() - dupBytes;
    long offHeap = factory.chunks().offHeap() ? data + index.indexBytes() : 0; // the filter is on heap
    SegmentStats stats = new SegmentStats(u.firstRow(), u.lastRow(), u.minTimestamp(), u.maxTimestamp(),
        u.minSeqId(), u.maxSeqId(), u.cellCount() - dups, data, 0, index.indexBytes() + heapBytes(filter), offHeap);
    ImmutableSegment out = new ImmutableSegment(ids.getAsLong(), new ChunkImmutableIndex(index), stats,
        List.of(index), factory.heapViews(), filter);
    return new Result(out, n, distinct);
  }

  /**
   * {@link Cell#columnRelation} of two serialized cells in chunk buffers: in place for heap chunks;
   * direct ones compare byte by byte (the row first: its length prefix makes equal bytes mean equal
   * rows; then the family and qualifier before timestamp and type).
   */
  private static int columnRelation(ByteBuffer a, int aOff, ByteBuffer b, int bOff) {
    if (a.hasArray() && b.hasArray()) {
      return Cell.columnRelation(a.array(), a.arrayOffset() + aOff, b.array(), b.arrayOffset() + bOff);
    }
    int ak = aOff + Cell.PREFIX;
    int bk = bOff + Cell.PREFIX;
    int rowEnd = 2 + (a.getShort(ak) & 0xFFFF);
    if (!sameBytes(a, ak, b, bk, rowEnd)) {
      return Cell.OTHER_ROW;
    }
    int aLen = a.getInt(aOff) - 9;
    return aLen == b.getInt(bOff) - 9 && sameBytes(a, ak + rowEnd, b, bk + rowEnd, aLen - rowEnd)
        ? Cell.SAME_COLUMN : Cell.SAME_ROW;
  }

  private static boolean sameBytes(ByteBuffer a, int aOff, ByteBuffer b, int bOff, int len) {
    for (int i = 0; i < len; i++) {
      if (a.get(aOff + i) != b.get(bOff + i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Merges stable segments into one, keeping only the cells {@code filter} keeps. In a chunk-backed
   * store the survivors are copied into a fresh MSLAB.
   */
  Result compact(List<Segment> inputs, RetentionFilter filter) {
    long n = cellCount(inputs);
    CellScanner run = open(inputs);
    if (run == null) {
      return new Result(null, n, 0);
    }
    boolean chunkIndex = factory.chunkFlat();
    boolean relocate = chunkIndex || factory.mslab();
    MemStoreLab lab = relocate ? factory.newLab(dataBytes(inputs)) : null;
    ChunkCellIndex.Builder builder = chunkIndex ? ChunkCellIndex.builder(factory.chunks(), n) : null;
    List<Cell> kept = new ArrayList<>();
    SegmentStats.Accumulator acc = new SegmentStats.Accumulator();
    long read = 0;
    long distinct = 0;
    int keptCount = 0; // cells kept so far: the next one's position in the output
    SegmentRowFilter.Builder rows = rowFilterBuilder();
    ImmutableSegment out;
    try {
      Cell prev = null;
      boolean newRow = false; // no cell of the current row kept yet: the next kept one is its first
      for (Cell c = run.next(); c != null; c = run.next()) {
        read++;
        int relation = prev == null ? Cell.OTHER_ROW : prev.columnRelation(c);
        if (relation != Cell.SAME_COLUMN) {
          distinct++;
        }
        newRow |= relation == Cell.OTHER_ROW;
        prev = c;
        if (!filter.keep(c, relation)) {
          continue;
        }
        if (rows != null && newRow) {
          rows.addRow(c.array(), c.rowOffset(), c.rowLength(), keptCount);
        }
        newRow = false;
        keptCount++;
        if (chunkIndex) {
          builder.addCopy(lab, c);
          acc.add(c, 0);
        } else if (relocate) {
          Cell moved = lab.copyCell(c);
          kept.add(moved);
          acc.add(moved, MemoryLayout.CELL_OBJECT);
        } else {
          kept.add(c);
          acc.add(c);
        }
      }
      if (chunkIndex) {
        ChunkCellIndex index = builder.build();
        builder = null;
        lab.close(); // the index holds the data chunks now
        long offHeap = factory.chunks().offHeap() ? acc.dataBytes() + index.indexBytes() : 0;
        SegmentRowFilter rowFilter = build(rows);
        out = new ImmutableSegment(ids.getAsLong(), new ChunkImmutableIndex(index),
            acc.build(index.indexBytes() + heapBytes(rowFilter), offHeap, true), List.of(index), factory.heapViews(),
            rowFilter);
      } else {
        CellArrayIndex index = new CellArrayIndex(kept.toArray(new Cell[0]), kept.size());
        SegmentRowFilter rowFilter = build(rows);
        out = new ImmutableSegment(ids.getAsLong(), index,
            acc.build(index.indexBytes() + heapBytes(rowFilter), 0, relocate),
            relocate ? List.of(lab) : List.of(), factory.heapViews(), rowFilter);
      }
    } catch (RuntimeException | Error e) {
      if (builder != null) {
        builder.abort();
      }
      if (lab != null) {
        lab.close();
      }
      throw e;
    } finally {
      run.close();
    }
    return new Result(out, read, distinct, relocate ? acc.dataBytes() : 0);
  }

  private SegmentRowFilter.Builder rowFilterBuilder() {
    return factory.rowFilter() ? new SegmentRowFilter.Builder() : null;
  }

  private static SegmentRowFilter build(SegmentRowFilter.Builder rows) {
    return rows == null ? null : rows.build();
  }

  private static long heapBytes(SegmentRowFilter filter) {
    return filter == null ? 0 : filter.heapBytes();
  }

  /** A merged scanner positioned at the first cell, or null if some input was already freed. */
  private static CellScanner open(List<Segment> inputs) {
    List<CellScanner> scanners = new ArrayList<>(inputs.size());
    for (Segment s : inputs) {
      CellScanner sc = s.tryInternalScanner();
      if (sc == null) {
        scanners.forEach(CellScanner::close);
        return null;
      }
      scanners.add(sc);
    }
    CellScanner run = scanners.size() == 1 ? scanners.get(0) : new MergingScanner(scanners);
    run.seek(firstKey());
    return run;
  }

  /** A search key before every real cell: empty row, family and qualifier, newest, MAXIMUM type. */
  static Cell firstKey() {
    Cell k = Cells.create(Bytes.EMPTY, Bytes.EMPTY, Bytes.EMPTY, Long.MAX_VALUE, CellType.MAXIMUM, Bytes.EMPTY);
    k.setSeqId(Long.MAX_VALUE);
    return k;
  }
}
