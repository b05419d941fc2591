package io.bellows.bench;

import io.bellows.cell.Cell;
import io.bellows.config.MemStorePolicy;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Memory-store-only inserts (no WAL, no disk) of the Accordion paper's rows: each invocation puts
 * one row of 4 cells × 25-byte values, so JMH's score is <b>cells</b> per second and {@code -prof gc}'s
 * {@code gc.alloc.rate.norm} is bytes allocated per cell (by the writer; the background thread's
 * allocation shows in {@code gc.alloc.rate} only). In-memory flushes, merges and compactions run on a
 * real background thread; when the footprint reaches the flush size, the writer simulates the disk
 * flush with snapshot + release (see {@link MemStoreHarness}). The store lives for the whole trial,
 * so iterations measure the steady state of fill, flush, fill.
 *
 * <p>Defaults finish in a few minutes on 2 cores; scale with JMH's own options (see BENCHMARKS.md),
 * e.g. {@code -f 3 -wi 5 -i 10 -r 10s -p keySpace=10000000 -p flushSizeMiB=128 -t 2}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+UseG1GC", "-XX:MaxDirectMemorySize=2g"})
@Threads(1)
@State(Scope.Benchmark)
public class MemStoreInsertBenchmark {
  @Param({"NONE", "BASIC", "EAGER", "ADAPTIVE"})
  public MemStorePolicy policy;

  @Param({"OBJECT", "CHUNK_HEAP", "CHUNK_OFFHEAP"})
  public IndexKind index;

  @Param({"ZIPF", "UNIQUE"})
  public KeyDistribution keys;

  /** Rows in the Zipf key space (ignored by UNIQUE). */
  @Param({"1000000"})
  public long keySpace;

  /** The memory budget: footprint at which the store is flushed to "disk". */
  @Param({"64"})
  public int flushSizeMiB;

  @Param({"42"})
  public long seed;

  private MemStoreHarness store;
  private final AtomicInteger writerIds = new AtomicInteger();

  @Setup(Level.Trial)
  public void openStore() {
    store = new MemStoreHarness(new StoreConfig(policy, index, flushSizeMiB * 1024L * 1024L));
  }

  @TearDown(Level.Trial)
  public void closeStore() {
    System.out.println();
    System.out.println("  " + store.config().label() + " " + keys + ": cells added " + store.cellsAdded()
        + ", disk flushes " + store.diskFlushes() + ", cells flushed " + store.flushedCells()
        + ", memstore " + store.metrics());
    store.close();
  }

  /** One writer's key chooser and row builder, seeded from the trial seed and the writer's number. */
  @State(Scope.Thread)
  public static class Writer {
    KeyChooser chooser;
    PaperRows rows;
    final Cell[] row = new Cell[PaperRows.CELLS_PER_ROW];
    long ts;

    @Setup(Level.Trial)
    public void setUp(MemStoreInsertBenchmark b) {
      long s = b.seed * 1_000_003L + b.writerIds.getAndIncrement();
      chooser = b.keys.chooser(b.keySpace, s);
      rows = new PaperRows(s);
    }
  }

  @Benchmark
  @OperationsPerInvocation(PaperRows.CELLS_PER_ROW)
  public void putRow(Writer w) {
    w.rows.row(w.chooser.nextRowId(), ++w.ts, w.row);
    store.addRow(w.row);
  }
}
