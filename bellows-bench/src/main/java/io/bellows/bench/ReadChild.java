package io.bellows.bench;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One step of {@code bench read}, alone in its JVM ({@link ReadBench} starts a fresh {@code java}
 * for each): {@code --mode load} creates a block layout's store in {@code --dir}, loads, flushes and
 * major-compacts it and reports its data blocks; {@code --mode run} opens a copy of a loaded
 * directory with a configuration's caches and runs one workload ({@link ReadRunner}). Prints
 * {@code READ-PROGRESS <phase> <done> <total>} every {@code --progress-ms} and at the end one
 * {@link ReadResult} line. Exits non-zero on failure.
 */
public final class ReadChild {
  static final String PROGRESS_PREFIX = "READ-PROGRESS ";
  private static final Set<String> OPTIONS = Set.of("mode", "layout", "config", "workload", "dir", "rows", "seed",
      "budget", "threads", "warmup", "ops", "progress-ms", "window", "direct-io");

  private ReadChild() {}

  public static void main(String[] argv) {
    try {
      run(argv, System.out::println);
    } catch (Throwable t) {
      t.printStackTrace();
      System.exit(1);
    }
    System.exit(0); // do not wait for a store's straggling threads
  }

  /** Runs one step, sending progress and result lines to {@code lines}; returns the result. */
  static ReadResult run(String[] argv, Consumer<String> lines) throws Exception {
    Args a = new Args(argv, OPTIONS);
    Path dir = Path.of(required(a, "dir"));
    long rows = a.getLong("rows", ReadBench.ROWS);
    long budget = a.getLong("budget", ReadBench.CACHE_BUDGET);
    ReadRows data = new ReadRows(a.getLong("seed", 42));
    ReadRunner.Progress progress = new ReadRunner.Progress();
    Thread reporter = reporter(progress, a.getLong("progress-ms", 10_000), lines);
    reporter.start();
    try {
      ReadResult r = switch (a.get("mode", "")) {
        case "load" -> load(ReadLayout.ofLabel(required(a, "layout")), dir, rows, budget, data, progress);
        case "run" -> runWorkload(ReadConfig.parse(required(a, "config")),
            ReadWorkload.parse(required(a, "workload")), dir, rows, budget, data, a.getLong("seed", 42),
            (int) a.getLong("threads", 4), a.getLong("warmup", 0), a.getLong("ops", 1), a.getLong("window", 0),
            Boolean.parseBoolean(a.get("direct-io", "false")), progress);
        default -> throw new IllegalArgumentException("--mode must be load or run");
      };
      lines.accept(r.toLine());
      return r;
    } finally {
      reporter.interrupt();
    }
  }

  private static ReadResult load(ReadLayout layout, Path dir, long rows, long budget, ReadRows data,
      ReadRunner.Progress progress) throws Exception {
    long start = System.nanoTime();
    try (ReadStore store = layout.isRocksDb() ? new RocksDbReadStore(dir, budget, false)
        : BellowsReadStore.create(dir, layout, budget)) {
      ReadRunner.load(store, data, rows, progress);
    }
    Map<String, Double> f = new HashMap<>(layout.isRocksDb() ? RocksDbReadStore.dataBlocks(dir)
        : BellowsReadStore.dataBlocks(dir));
    f.put(ReadResult.LOAD_SECONDS, (System.nanoTime() - start) / 1e9);
    return new ReadResult(layout.label, "load", f);
  }

  private static ReadResult runWorkload(ReadConfig config, ReadWorkload workload, Path dir, long rows, long budget,
      ReadRows data, long seed, int threads, long warmup, long ops, long window, boolean directIo,
      ReadRunner.Progress progress) throws Exception {
    try (ReadStore store = config.isRocksDb() ? new RocksDbReadStore(dir, budget, config.rowCache(), directIo)
        : BellowsReadStore.open(dir, budget, config.rowCache(), directIo, config.offHeap())) {
      return new ReadResult(config.label(), workload.label,
          ReadRunner.run(store, data, workload, rows, seed, threads, warmup, ops, window, progress));
    }
  }

  private static String required(Args a, String name) {
    String v = a.get(name, null);
    if (v == null) {
      throw new IllegalArgumentException("--" + name + " is required");
    }
    return v;
  }

  private static Thread reporter(ReadRunner.Progress progress, long periodMillis, Consumer<String> lines) {
    Thread t = new Thread(() -> {
      try {
        while (true) {
          Thread.sleep(periodMillis); // a reporting period, not synchronization
          lines.accept(PROGRESS_PREFIX + progress.phase + " " + progress.done.sum() + " " + progress.total);
        }
      } catch (InterruptedException done) {
        // the step is over
      }
    }, "read-progress");
    t.setDaemon(true);
    return t;
  }
}
