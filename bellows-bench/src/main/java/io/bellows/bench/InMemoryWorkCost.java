package io.bellows.bench;

import io.bellows.cell.Cell;
import io.bellows.config.Knob;
import io.bellows.config.MemStorePolicy;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the memory store's background work (flattens, merges, compactions) costs in CPU per cell
 * written, for the engine's default layout and policy: one writer puts the paper's rows into a
 * {@link MemStoreHarness} (no WAL, no disk; a full store is "flushed" by snapshot and release), then
 * waits for the background work to end. Prints, per round, the background thread's CPU time per cell
 * and the counts of the work done. A fresh store per round; the first round also warms the JIT.
 *
 * <pre>
 * java -cp bellows-bench/target/benchmarks.jar io.bellows.bench.InMemoryWorkCost \
 *     [--rows 2000000] [--keys UNIFORM,ZIPF] [--key-space 10000000] [--rounds 4] [--flush-mib 64] [--seed 42]
 *     [--set PIPELINE_MAX_SEGMENTS=8,...]
 * </pre>
 *
 * <p>The background thread runs beside the writer on another core, so its CPU time is its own work,
 * not a share of the writer's: the figure to compare between builds.
 */
public final class InMemoryWorkCost {
  private InMemoryWorkCost() {}

  public static void main(String[] argv) {
    Args a = new Args(argv, Set.of("rows", "keys", "key-space", "rounds", "flush-mib", "seed", "set"));
    long rows = a.getLong("rows", 2_000_000);
    long keySpace = a.getLong("key-space", 10_000_000);
    int rounds = (int) a.getLong("rounds", 4);
    long flushSize = a.getLong("flush-mib", 64) << 20;
    long seed = a.getLong("seed", 42);
    Map<String, String> knobs = KnobSettings.parse(a.get("set", ""), "--set takes family knobs", Knob.Scope.FAMILY);
    List<KeyDistribution> keys = Arrays.stream(a.get("keys", "UNIFORM,ZIPF").split(","))
        .map(s -> KeyDistribution.valueOf(s.trim().toUpperCase())).toList();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    System.out.printf("InMemoryWorkCost: ADAPTIVE/%s, %,d rows of %d cells per round, key space %,d, flush %d MiB, seed %d%s%n",
        IndexKind.CHUNK_FLAT, rows, PaperRows.CELLS_PER_ROW, keySpace, flushSize >> 20, seed,
        knobs.isEmpty() ? "" : ", " + knobs);
    for (KeyDistribution k : keys) {
      List<Double> perCell = new ArrayList<>();
      for (int round = 1; round <= rounds; round++) {
        StoreConfig config = new StoreConfig(MemStorePolicy.ADAPTIVE, IndexKind.CHUNK_FLAT, flushSize, -1, knobs);
        try (MemStoreHarness store = new MemStoreHarness(config)) {
          KeyChooser chooser = k.chooser(keySpace, seed + round);
          PaperRows rowMaker = new PaperRows(seed + round);
          Cell[] row = new Cell[PaperRows.CELLS_PER_ROW];
          long start = System.nanoTime();
          for (long i = 1; i <= rows; i++) {
            rowMaker.row(chooser.nextRowId(), i, row);
            store.addRow(row);
          }
          store.awaitQuiescent();
          long wallNanos = System.nanoTime() - start;
          long cpuNanos = threads.getThreadCpuTime(store.backgroundThread().getId());
          long cells = store.cellsAdded();
          double nsPerCell = cpuNanos / (double) cells;
          perCell.add(nsPerCell);
          Map<String, Number> m = store.metrics();
          System.out.printf("%s round %d: background CPU %,d ms for %,d cells = %.1f ns a cell; wall %,d ms; "
                  + "in-memory flushes %s, flattens %s, merges %s, compactions %s, disk flushes %d%n",
              k, round, cpuNanos / 1_000_000, cells, nsPerCell, wallNanos / 1_000_000,
              m.get("memstore.in.memory.flushes"), m.get("memstore.flattens"), m.get("memstore.merges"),
              m.get("memstore.compactions"), store.diskFlushes());
        }
      }
      List<Double> measured = perCell.size() > 1 ? perCell.subList(1, perCell.size()) : perCell;
      double[] sorted = measured.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      int mid = sorted.length / 2;
      double median = sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
      System.out.printf("%s: rounds %d..%d, background ns a cell: median %.1f, range %.1f-%.1f%n", k,
          rounds - measured.size() + 1, rounds, median, sorted[0], sorted[sorted.length - 1]);
    }
  }
}
