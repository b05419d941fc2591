package io.bellows.bench;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import java.util.Comparator;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The writers' part of an Accordion store: inserting the paper's cells (scrambled Zipf rows over 10M
 * keys, 4 × 25 B columns) into an active segment's skiplist until it holds what an in-memory flush
 * takes (A = 0.02 of a 64 MiB flush size is about 13K cells), then starting a fresh one. {@code
 * comparator}: {@code PREFIX} is the engine's {@link CellComparator}, which orders most pairs by the
 * rows' eight-byte prefixes kept in the cell objects; {@code BYTES} compares the serialized keys
 * alone, as before the prefix existed. Both in one run, so their ratio is the prefix's gain. Score:
 * cells inserted per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+UseG1GC"})
@State(Scope.Thread)
public class SkipListInsertBenchmark {
  /** Cells per active segment. */
  static final int SEGMENT_CELLS = 13_000;
  /** Segments' worth of cells prepared up front, used in turn, so inserts miss the caches as they would. */
  static final int SEGMENTS = 40;

  /** The serialized order without the prefix: keys, then sequence id descending. */
  static final Comparator<Cell> BYTES_ONLY = (a, b) -> {
    int c = CellComparator.compareKeys(a.array(), a.offset(), b.array(), b.offset());
    return c != 0 ? c : Long.compare(b.seqId(), a.seqId());
  };

  @Param({"PREFIX", "BYTES"})
  public String comparator;

  private Cell[][] segments;
  private Comparator<Cell> order;
  private int next;

  @Setup
  public void setUp() {
    order = comparator.equals("PREFIX") ? CellComparator.INSTANCE : BYTES_ONLY;
    KeyChooser keys = KeyDistribution.ZIPF.chooser(10_000_000L, 42);
    PaperRows rows = new PaperRows(42);
    Cell[] row = new Cell[PaperRows.CELLS_PER_ROW];
    segments = new Cell[SEGMENTS][SEGMENT_CELLS];
    long ts = 0;
    for (Cell[] segment : segments) {
      for (int i = 0; i < SEGMENT_CELLS; i += row.length) {
        rows.row(keys.nextRowId(), ++ts, row);
        for (int k = 0; k < row.length && i + k < SEGMENT_CELLS; k++) {
          row[k].setSeqId(ts);
          segment[i + k] = row[k];
        }
      }
    }
  }

  @Benchmark
  @OperationsPerInvocation(SEGMENT_CELLS)
  public ConcurrentSkipListSet<Cell> fillSegment() {
    ConcurrentSkipListSet<Cell> set = new ConcurrentSkipListSet<>(order);
    for (Cell c : segments[next]) {
      set.add(c);
    }
    next = (next + 1) % SEGMENTS;
    return set;
  }
}
