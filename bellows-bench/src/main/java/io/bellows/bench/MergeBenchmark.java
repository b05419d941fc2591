package io.bellows.bench;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.scan.CellScanner;
import io.bellows.scan.MergingScanner;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
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
 * The k-way merge under every flush, compaction, in-memory compaction and read: {@code sources}
 * sorted inputs of the paper's cells (4 columns × 25 B per row) drained through Bellows' {@link
 * MergingScanner} and through the baseline {@link PriorityQueueMerge}, in the same run. {@code
 * layout}: {@code INTERLEAVED} deals rows to sources at random (every step may change source, as
 * when merging segments of uniform writes); {@code RUNS} deals runs of 256 rows (a source keeps the
 * smallest cell for a while, as when merging files of different key ranges or a large segment with
 * small ones). Score: cells per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+UseG1GC"})
@State(Scope.Thread)
public class MergeBenchmark {
  static final int ROWS = 50_000;
  static final int CELLS = ROWS * PaperRows.CELLS_PER_ROW;

  @Param({"2", "4", "8"})
  public int sources;

  @Param({"INTERLEAVED", "RUNS"})
  public String layout;

  private Cell[][] inputs;

  @Setup
  public void setUp() {
    SplittableRandom random = new SplittableRandom(42);
    List<List<Cell>> lists = new ArrayList<>();
    for (int s = 0; s < sources; s++) {
      lists.add(new ArrayList<>());
    }
    byte[] family = Bytes.of("f");
    byte[] value = new byte[PaperRows.VALUE_LENGTH];
    int source = 0;
    for (int r = 0; r < ROWS; r++) {
      if (layout.equals("INTERLEAVED")) {
        source = random.nextInt(sources);
      } else if (r % 256 == 0) {
        source = random.nextInt(sources);
      }
      byte[] row = Bytes.of(String.format("user%020d", r));
      for (int q = 0; q < PaperRows.CELLS_PER_ROW; q++) {
        lists.get(source).add(Cells.put(row, family, PaperRows.qualifier(q), 1, value));
      }
    }
    inputs = new Cell[sources][];
    for (int s = 0; s < sources; s++) {
      inputs[s] = lists.get(s).toArray(new Cell[0]);
    }
  }

  private List<CellScanner> scanners() {
    List<CellScanner> out = new ArrayList<>(sources);
    for (Cell[] in : inputs) {
      out.add(new ArrayScanner(in));
    }
    return out;
  }

  @Benchmark
  @OperationsPerInvocation(CELLS)
  public long mergingScanner() {
    return drain(new MergingScanner(scanners()));
  }

  @Benchmark
  @OperationsPerInvocation(CELLS)
  public long priorityQueueBaseline() {
    return drain(new PriorityQueueMerge(scanners()));
  }

  private static long drain(CellScanner s) {
    long n = 0;
    while (s.next() != null) {
      n++;
    }
    if (n != CELLS) {
      throw new IllegalStateException("merged " + n + " cells of " + CELLS);
    }
    return n;
  }

  /** A sorted array as a scanner. */
  private static final class ArrayScanner implements CellScanner {
    private final Cell[] cells;
    private int i;

    ArrayScanner(Cell[] cells) {
      this.cells = cells;
    }

    @Override
    public Cell peek() {
      return i < cells.length ? cells[i] : null;
    }

    @Override
    public Cell next() {
      return i < cells.length ? cells[i++] : null;
    }

    @Override
    public boolean seek(Cell key) {
      int at = Arrays.binarySearch(cells, key, io.bellows.cell.CellComparator.INSTANCE);
      i = at >= 0 ? at : -at - 1;
      return i < cells.length;
    }

    @Override
    public void close() {
    }
  }
}
