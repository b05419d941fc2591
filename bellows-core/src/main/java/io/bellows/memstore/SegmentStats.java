package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.scan.ScanQuery;
import java.util.List;

/**
 * Metadata of a segment at one moment: key range (the cells with the smallest and largest row, or
 * null when empty), time range, sequence id range, cell count and memory. Immutable.
 *
 * @param firstRow a cell of the smallest row, null if the segment is empty
 * @param lastRow a cell of the largest row, null if the segment is empty
 * @param indexBytes heap bytes of the index structure (skiplist nodes or array)
 * @param cellObjectBytes heap bytes of cell objects (and private array headers) beyond the data
 * @param offHeapBytes the part of data and overhead held in direct memory
 */
public record SegmentStats(
    Cell firstRow,
    Cell lastRow,
    long minTimestamp,
    long maxTimestamp,
    long minSeqId,
    long maxSeqId,
    long cellCount,
    long dataBytes,
    long cellObjectBytes,
    long indexBytes,
    long offHeapBytes) {

  public static final SegmentStats EMPTY =
      new SegmentStats(null, null, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, 0, 0, 0, 0, 0, 0);

  public long overheadBytes() {
    return cellObjectBytes + indexBytes;
  }

  public long footprint() {
    return dataBytes + overheadBytes();
  }

  public MemStoreSize size() {
    return new MemStoreSize(dataBytes, overheadBytes(), offHeapBytes, cellCount);
  }

  /** Whether a read with this query may find cells here (key range, time range, read point). */
  public boolean mayMatch(ScanQuery q) {
    return mayMatch(firstRow, lastRow, minSeqId, maxTimestamp, q);
  }

  /** {@link #mayMatch(ScanQuery)} from the ranges alone (an active segment reads them from its atomics). */
  static boolean mayMatch(Cell firstRow, Cell lastRow, long minSeqId, long maxTimestamp, ScanQuery q) {
    if (firstRow == null || !inReadAndTimeRange(minSeqId, maxTimestamp, q)) {
      return false;
    }
    if (q.pastStop(firstRow.array(), firstRow.rowOffset(), firstRow.rowLength())) {
      return false;
    }
    byte[] start = q.startRow();
    if (start.length > 0) {
      int c = CellComparator.compareRow(lastRow, start);
      if (c < 0 || (c == 0 && !q.startInclusive())) {
        return false;
      }
    }
    return true;
  }

  /** Whether cells of these sequence ids and timestamps may be visible to {@code q} and in its time range. */
  static boolean inReadAndTimeRange(long minSeqId, long maxTimestamp, ScanQuery q) {
    if (minSeqId > q.readPoint()) {
      return false; // every cell here is newer than the reader's snapshot
    }
    // Everything here, tombstones included, older than the range: skipped. No skip for cells newer
    // than the range: a newer version still takes one of the family's VERSIONS slots and a newer
    // tombstone still masks older puts (docs/design/scan.md).
    return maxTimestamp >= q.minTimestamp();
  }

  /**
   * Stats of the union of segments whose cells are all kept (an index-only merge): ranges widen,
   * counts and data add up, and the index is replaced by one of {@code indexBytes}.
   */
  public static SegmentStats union(List<SegmentStats> parts, long indexBytes) {
    Cell first = null;
    Cell last = null;
    long minTs = Long.MAX_VALUE;
    long maxTs = Long.MIN_VALUE;
    long minSeq = Long.MAX_VALUE;
    long maxSeq = 0;
    long cells = 0;
    long data = 0;
    long objects = 0;
    long offHeap = 0;
    for (SegmentStats s : parts) {
      if (s.firstRow != null && (first == null || CellComparator.compareRows(s.firstRow, first) < 0)) {
        first = s.firstRow;
      }
      if (s.lastRow != null && (last == null || CellComparator.compareRows(s.lastRow, last) > 0)) {
        last = s.lastRow;
      }
      minTs = Math.min(minTs, s.minTimestamp);
      maxTs = Math.max(maxTs, s.maxTimestamp);
      minSeq = Math.min(minSeq, s.minSeqId);
      maxSeq = Math.max(maxSeq, s.maxSeqId);
      cells += s.cellCount;
      data += s.dataBytes;
      objects += s.cellObjectBytes;
      offHeap += s.offHeapBytes;
    }
    return new SegmentStats(first, last, minTs, maxTs, minSeq, maxSeq, cells, data, objects, indexBytes, offHeap);
  }

  /**
   * Builds the stats of a sorted run of cells, one cell at a time, while the run is being produced
   * (an in-memory compaction writes its output in order anyway, so this costs no extra walk).
   * Single-threaded.
   */
  public static final class Accumulator {
    private Cell first;
    private Cell last;
    private long minTs = Long.MAX_VALUE;
    private long maxTs = Long.MIN_VALUE;
    private long minSeq = Long.MAX_VALUE;
    private long maxSeq = 0;
    private long cells;
    private long data;
    private long objects;

    /** Adds the next cell of a sorted run, kept as the object {@code c} itself. */
    public void add(Cell c) {
      add(c, MemoryLayout.cellObjectBytes(c));
    }

    /** Adds the next cell of a sorted run, charging {@code objectBytes} of heap objects for it. */
    public void add(Cell c, long objectBytes) {
      if (first == null) {
        first = c;
      }
      last = c;
      long ts = c.timestamp();
      minTs = Math.min(minTs, ts);
      maxTs = Math.max(maxTs, ts);
      minSeq = Math.min(minSeq, c.seqId());
      maxSeq = Math.max(maxSeq, c.seqId());
      cells++;
      data += c.dataSize();
      objects += objectBytes;
    }

    public long cellCount() {
      return cells;
    }

    public long dataBytes() {
      return data;
    }

    /**
     * The stats. The first and last cells are copied when {@code copyBounds}: a cell viewing chunk
     * memory must not outlive its segment inside stats that others may still hold.
     */
    public SegmentStats build(long indexBytes, long offHeapBytes, boolean copyBounds) {
      Cell f = copyBounds && first != null ? new Cell(first.toBytes(), 0, first.length(), first.seqId()) : first;
      Cell l = copyBounds && last != null ? new Cell(last.toBytes(), 0, last.length(), last.seqId()) : last;
      return new SegmentStats(f, l, minTs, maxTs, minSeq, maxSeq, cells, data, objects, indexBytes, offHeapBytes);
    }

    public SegmentStats build(long indexBytes) {
      return build(indexBytes, 0, false);
    }
  }
}
