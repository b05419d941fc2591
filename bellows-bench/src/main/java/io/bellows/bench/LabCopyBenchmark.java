package io.bellows.bench;

import io.bellows.cell.Cell;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.memstore.chunk.MemStoreLab;
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
 * What a flatten or an in-memory compaction pays per cell to copy it into its output's chunks: the
 * paper's cells (4 columns × 25 B per row, rows in random order) copied into a fresh {@link
 * MemStoreLab} per invocation, one sized for many writers ({@code SHARED}: a CAS on the chunk's
 * bump pointer and a {@code LongAdder} per cell) and one for its creating thread alone ({@code
 * ONE}, {@link MemStoreLab#forOneWriter}, what compactions use). The chunks go back to the
 * allocator's pool after each invocation, as a compaction's inputs' chunks do. Score: cells per
 * second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+UseG1GC"})
@State(Scope.Thread)
public class LabCopyBenchmark {
  static final int ROWS = 50_000;
  static final int CELLS = ROWS * PaperRows.CELLS_PER_ROW;
  static final int CHUNK = 2 * 1024 * 1024 - 64;

  @Param({"SHARED", "ONE"})
  public String writer;

  private Cell[] cells;
  private long bytes;
  private ChunkAllocator allocator;

  @Setup
  public void setUp() {
    cells = PaperRows.randomRowCells(42, ROWS, 10_000_000L);
    for (Cell c : cells) {
      bytes += c.length();
    }
    allocator = new ChunkAllocator(CHUNK, 64L * CHUNK, false);
  }

  @Benchmark
  @OperationsPerInvocation(CELLS)
  public long copy() {
    MemStoreLab lab = writer.equals("ONE") ? MemStoreLab.forOneWriter(allocator, bytes)
        : new MemStoreLab(allocator, bytes);
    long refs = 0;
    for (Cell c : cells) {
      refs ^= lab.copy(c);
    }
    if (lab.dataBytes() != bytes) {
      throw new IllegalStateException("copied " + lab.dataBytes() + " bytes of " + bytes);
    }
    lab.close();
    return refs;
  }
}
