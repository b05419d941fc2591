package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.scan.CellScanner;
import io.bellows.scan.RetentionFilter;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Builds one new immutable segment from stable input segments, walking their merged sorted run
 * once: <b>flatten</b> (one mutable segment's skiplist becomes an array; no data copied),
 * <b>merge</b> (several indexes become one array; no data copied, nothing dropped) and
 * <b>compact</b> (like merge, but a {@link RetentionFilter} drops redundant cells). While walking it
 * counts distinct columns (row, family, qualifier), which gives ADAPTIVE its uniqueness estimate at
 * no extra cost. The inputs are not changed; the caller installs the result or drops it.
 *
 * <p>Stateless apart from the id source; the caller runs one operation at a time per store.
 */
final class SegmentCompactor {
  /** What one operation produced. {@code output} is null if an input was freed meanwhile. */
  record Result(ImmutableSegment output, long inputCells, long distinctColumns) {
    /** Fraction of input cells that are the first of their column: 1 means all unique. */
    double uniqueness() {
      return inputCells == 0 ? 1.0 : (double) distinctColumns / inputCells;
    }
  }

  private final LongSupplier ids;

  SegmentCompactor(LongSupplier ids) {
    this.ids = ids;
  }

  /** Flattens one sealed segment. */
  Result flatten(Segment in) {
    return merge(List.of(in));
  }

  /** Merges the indexes of stable segments into one array, keeping every cell. */
  Result merge(List<Segment> inputs) {
    List<SegmentStats> parts = new ArrayList<>(inputs.size());
    long n = 0;
    for (Segment s : inputs) {
      SegmentStats st = s.stats();
      parts.add(st);
      n += st.cellCount();
    }
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("segment of " + n + " cells is too large for an array index");
    }
    Cell[] out = new Cell[(int) n];
    CellScanner run = open(inputs);
    if (run == null) {
      return new Result(null, n, 0);
    }
    int i = 0;
    long distinct = 0;
    try {
      Cell prev = null;
      for (Cell c = run.next(); c != null; c = run.next()) {
        if (prev == null || CellComparator.compareColumns(prev, c) != 0) {
          distinct++;
        }
        out[i++] = c;
        prev = c;
      }
    } finally {
      run.close();
    }
    if (i != n) {
      throw new IllegalStateException("stable segments changed during a merge: expected " + n + " cells, read " + i);
    }
    CellArrayIndex index = new CellArrayIndex(out, i);
    SegmentStats stats = SegmentStats.union(parts, index.indexBytes());
    return new Result(new ImmutableSegment(ids.getAsLong(), index, stats), n, distinct);
  }

  /** Merges stable segments into one array, keeping only the cells {@code filter} keeps. */
  Result compact(List<Segment> inputs, RetentionFilter filter) {
    long n = 0;
    for (Segment s : inputs) {
      n += s.stats().cellCount();
    }
    CellScanner run = open(inputs);
    if (run == null) {
      return new Result(null, n, 0);
    }
    List<Cell> kept = new ArrayList<>();
    SegmentStats.Accumulator acc = new SegmentStats.Accumulator();
    long read = 0;
    long distinct = 0;
    try {
      Cell prev = null;
      for (Cell c = run.next(); c != null; c = run.next()) {
        read++;
        if (prev == null || CellComparator.compareColumns(prev, c) != 0) {
          distinct++;
        }
        prev = c;
        if (filter.keep(c)) {
          kept.add(c);
          acc.add(c);
        }
      }
    } finally {
      run.close();
    }
    CellArrayIndex index = new CellArrayIndex(kept.toArray(new Cell[0]), kept.size());
    return new Result(new ImmutableSegment(ids.getAsLong(), index, acc.build(index.indexBytes())), read, distinct);
  }

  /** A merged scanner positioned at the first cell, or null if some input was already freed. */
  private static CellScanner open(List<Segment> inputs) {
    List<CellScanner> scanners = new ArrayList<>(inputs.size());
    for (Segment s : inputs) {
      CellScanner sc = s.tryScanner();
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
