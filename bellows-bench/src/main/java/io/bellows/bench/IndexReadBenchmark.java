package io.bellows.bench;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.memstore.chunk.ChunkCellIndex;
import io.bellows.memstore.chunk.MemStoreLab;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reading a flat chunk index (a flat segment of the memory store) entry by entry, as a flatten,
 * merge, compaction or flush does: {@code cells} reads each entry's cell, {@code entries} reads an
 * entry's fields as the index-only merge does. 200K of the paper's cells (4 columns × 25 B per
 * row), 2 MiB − 64 chunks. Score: entries per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+UseG1GC"})
@State(Scope.Thread)
public class IndexReadBenchmark {
  static final int ROWS = 50_000;
  static final int CELLS = ROWS * PaperRows.CELLS_PER_ROW;

  private ChunkAllocator allocator;
  private ChunkCellIndex index;

  @Setup
  public void setUp() {
    Cell[] cells = PaperRows.randomRowCells(42, ROWS, 10_000_000L);
    Arrays.sort(cells, CellComparator.INSTANCE);
    allocator = new ChunkAllocator(LabCopyBenchmark.CHUNK, 0, false);
    MemStoreLab lab = MemStoreLab.forOneWriter(allocator, 0);
    ChunkCellIndex.Builder b = ChunkCellIndex.builder(allocator, CELLS);
    for (Cell c : cells) {
      b.addCopy(lab, c);
    }
    index = b.build();
    lab.close();
  }

  @TearDown
  public void tearDown() {
    index.close();
  }

  @Benchmark
  @OperationsPerInvocation(CELLS)
  public long cells() {
    long x = 0;
    for (int i = 0; i < index.size(); i++) {
      x += index.cell(i).rowPrefix();
    }
    return x;
  }

  @Benchmark
  @OperationsPerInvocation(CELLS)
  public long entries() {
    long x = 0;
    for (int i = 0; i < index.size(); i++) {
      x += index.chunkId(i) + index.offset(i) + index.length(i) + index.seqId(i);
    }
    return x;
  }
}
