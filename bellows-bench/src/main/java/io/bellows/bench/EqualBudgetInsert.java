package io.bellows.bench;

import io.bellows.cell.Cell;
import io.bellows.config.MemStorePolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * NONE against the Accordion policies at the <b>same memory budget</b> (flush size): one writer
 * thread inserts the paper's rows, in-memory compactions run on a background thread, and the writer
 * simulates a disk flush (snapshot + release) whenever the footprint reaches the flush size. Reports
 * per policy the median throughput over several rounds, the ratio to NONE, the number of disk-flush
 * equivalents (snapshots), the cells they would write, row-insert latency percentiles
 * (HdrHistogram) and GC. This backs the targets "BASIC ≥ 1.3× NONE on Zipf" and "ADAPTIVE at most 3%
 * slower than NONE on uniform all-unique keys".
 *
 * <p>Method: one untimed warm-up pass over every configuration (a quarter of the cells), then
 * {@code --rounds} rounds; each round runs every policy once, in a rotated order so no policy always
 * runs first after a GC-heavy predecessor. Every run uses a fresh store and the same seed, so all
 * policies see the same key sequence. Single-threaded driver; not reusable.
 */
public final class EqualBudgetInsert {
  private static final Set<String> OPTIONS =
      Set.of("cells", "scale", "flush-mib", "key-space", "rounds", "policies", "index", "keys", "seed");

  /** What one run measured. */
  record Run(double cellsPerSecond, long diskFlushes, long cellsFlushed, long gcCount, long gcMillis,
      Histogram rowLatencyNanos, Map<String, Number> metrics) {}

  public static void main(String[] argv) {
    Args args = new Args(argv, OPTIONS);
    long cells = (long) (args.getLong("cells", 4_000_000) * args.getDouble("scale", 1));
    long flushSize = args.getLong("flush-mib", 32) * 1024 * 1024;
    long keySpace = args.getLong("key-space", 1_000_000);
    int rounds = (int) args.getLong("rounds", 3);
    List<MemStorePolicy> policies = Configs.policies(args.get("policies", "NONE,BASIC,EAGER,ADAPTIVE"));
    IndexKind index = IndexKind.valueOf(args.get("index", "OBJECT").toUpperCase());
    List<KeyDistribution> dists = Configs.distributions(args.get("keys", "ZIPF,UNIQUE"));
    long seed = args.getLong("seed", 42);

    System.out.printf("# EqualBudgetInsert: %,d cells per run, flush size %d MiB, Zipf key space %,d rows, layout %s,"
            + " %d rounds, seed %d, %s, %d CPUs%n%n",
        cells, flushSize >> 20, keySpace, index, rounds, seed, Runtime.version(),
        Runtime.getRuntime().availableProcessors());

    for (KeyDistribution dist : dists) {
      for (MemStorePolicy p : policies) {
        run(new StoreConfig(p, index, flushSize), dist, keySpace, cells / 4, seed); // warm-up, discarded
      }
    }
    for (KeyDistribution dist : dists) {
      Map<MemStorePolicy, List<Run>> runs = new EnumMap<>(MemStorePolicy.class);
      for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < policies.size(); i++) {
          MemStorePolicy p = policies.get((i + r) % policies.size());
          Run run = run(new StoreConfig(p, index, flushSize), dist, keySpace, cells, seed);
          runs.computeIfAbsent(p, k -> new ArrayList<>()).add(run);
          System.out.printf("  %s %s round %d: %,.0f cells/s, %d disk flushes%n", dist, p, r, run.cellsPerSecond(),
              run.diskFlushes());
        }
      }
      report(dist, policies, runs, cells);
    }
  }

  private static void report(KeyDistribution dist, List<MemStorePolicy> policies, Map<MemStorePolicy, List<Run>> runs,
      long cells) {
    System.out.printf("%n## %s keys%n%n", dist);
    MarkdownTable t = new MarkdownTable("policy", "median cells/s", "min–max cells/s", "× NONE", "disk flushes",
        "cells flushed / inserted", "row p50 µs", "row p99 µs", "row p99.9 µs", "row max ms", "GCs", "GC ms",
        "in-memory flushes / merges / compactions");
    Double none = runs.containsKey(MemStorePolicy.NONE) ? median(runs.get(MemStorePolicy.NONE)).cellsPerSecond() : null;
    for (MemStorePolicy p : policies) {
      List<Run> rs = runs.get(p);
      Run med = median(rs);
      double min = rs.stream().mapToDouble(Run::cellsPerSecond).min().orElse(0);
      double max = rs.stream().mapToDouble(Run::cellsPerSecond).max().orElse(0);
      Histogram h = med.rowLatencyNanos();
      Map<String, Number> m = med.metrics();
      t.row(p, String.format("%,.0f", med.cellsPerSecond()), String.format("%,.0f–%,.0f", min, max),
          none == null ? "-" : MarkdownTable.f2(med.cellsPerSecond() / none), med.diskFlushes(),
          MarkdownTable.f2((double) med.cellsFlushed() / cells),
          MarkdownTable.f1(h.getValueAtPercentile(50) / 1e3), MarkdownTable.f1(h.getValueAtPercentile(99) / 1e3),
          MarkdownTable.f1(h.getValueAtPercentile(99.9) / 1e3), MarkdownTable.f1(h.getMaxValue() / 1e6),
          med.gcCount(), med.gcMillis(),
          m.getOrDefault("memstore.in.memory.flushes", 0) + " / " + m.getOrDefault("memstore.merges", 0) + " / "
              + m.getOrDefault("memstore.compactions", 0));
    }
    System.out.println(t.render());
  }

  /** The run with the median throughput (the upper one of an even count). */
  static Run median(List<Run> runs) {
    Run[] sorted = runs.toArray(new Run[0]);
    Arrays.sort(sorted, (a, b) -> Double.compare(a.cellsPerSecond(), b.cellsPerSecond()));
    return sorted[sorted.length / 2];
  }

  /**
   * Inserts {@code cells} cells into a fresh store and flushes the remainder at the end, so that
   * "cells flushed" covers everything inserted. Only the insert loop is timed.
   */
  static Run run(StoreConfig config, KeyDistribution dist, long keySpace, long cells, long seed) {
    KeyChooser chooser = dist.chooser(keySpace, seed);
    PaperRows rows = new PaperRows(seed);
    Cell[] row = new Cell[PaperRows.CELLS_PER_ROW];
    Histogram latency = new Histogram(3);
    JvmCounters.heapUsedAfterGc(); // start every run from a collected heap
    try (MemStoreHarness store = new MemStoreHarness(config)) {
      JvmCounters.Sample gcBefore = JvmCounters.sample();
      long puts = cells / PaperRows.CELLS_PER_ROW;
      long start = System.nanoTime();
      long last = start;
      for (long i = 1; i <= puts; i++) {
        rows.row(chooser.nextRowId(), i, row);
        store.addRow(row);
        long now = System.nanoTime();
        latency.recordValue(now - last);
        last = now;
      }
      long elapsed = last - start;
      JvmCounters.Sample gc = JvmCounters.sample().minus(gcBefore);
      store.awaitQuiescent();
      Map<String, Number> metrics = store.metrics();
      long flushes = store.diskFlushes();
      long flushedCells = store.flushedCells();
      // What the final disk flush would write; not counted as a flush caused by the budget.
      flushedCells += store.size().cellCount();
      return new Run(puts * PaperRows.CELLS_PER_ROW * 1e9 / elapsed, flushes, flushedCells, gc.gcCount(),
          gc.gcMillis(), latency, metrics);
    }
  }
}
