package io.bellows.bench;

import io.bellows.config.Durability;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code bellows bench paper}: the write-only benchmark of the Accordion paper (VLDB 2018, §4.2.1)
 * with RocksDB in the same run. For each key distribution (YCSB's scrambled zipfian θ = 0.99, and
 * uniform) and each configuration (NONE, BASIC, EAGER, ADAPTIVE at R = 0.05 (the default), 0.2, 0.35, 0.5, RocksDB
 * default and tuned), one run in a fresh JVM ({@link ChildJvm}, {@link PaperChild}): 4 client
 * threads put rows (by default 4 × 25-byte cells) in batches (by default 100 rows) into one table, ASYNC_WAL. Then prints
 * and writes to {@code --out} the paper's Table 1 and Table 2 with Bellows/RocksDB ratios ({@link
 * PaperReport}), a CSV of every run and PNG charts ({@link PaperCharts}).
 *
 * <p>Order: key distributions in the order given, configurations in the order given within each;
 * every run uses the same seed, so every configuration sees the same key and value sequences. One
 * run at a time. Single-threaded driver; not reusable.
 */
public final class PaperBench {
  /** Rows per run at scale 1. */
  static final long ROWS = 5_000_000;
  /** The key space at scale 1 (the paper's key space scaled to this machine). */
  static final long KEY_SPACE = 10_000_000;
  /** The paper's table is pre-split into 50 regions for 500M rows: 10M rows per region. */
  static final long PAPER_ROWS_PER_REGION = 500_000_000L / 50;
  /** Operations of the scan-write phase at scale 1. */
  static final long OPS = 100_000;
  /**
   * Each child's JVM flags unless {@code --jvm} says otherwise. {@code -XX:+AlwaysPreTouch} faults
   * the heap's pages in when the JVM starts, before the run's clock: otherwise the operating
   * system's zeroing of every page on first touch (a cost of the heap's size, paid once in a
   * server's life) lands inside the first seconds of a run that lasts under a minute.
   */
  /** The table's durability unless --durability says otherwise: the paper's runs logged asynchronously. */
  static final Durability DURABILITY = Durability.ASYNC_WAL;

  static final String DEFAULT_JVM = "-Xms2g -Xmx2g -XX:+UseG1GC -XX:MaxDirectMemorySize=2g -XX:+AlwaysPreTouch";

  private static final Set<String> OPTIONS = Set.of("scale", "out", "keys", "configs", "seed", "regions", "rows",
      "key-space", "writers", "batch", "flush-mib", "dir", "jvm", "sweep", "workload", "progress-ms", "readers", "ops",
      "rounds", "io-log", "fields", "field-length", "batch-bytes", "durability", "layout", "write-rate");

  /** Everything an invocation needs, parsed from the options. */
  record Plan(PaperWorkload workload, List<PaperKeys> keys, List<PaperConfig> configs, long rows, long keySpace,
      int writers, int batch, long flushSize, int regions, long seed, Path out, Path dir, List<String> jvmFlags,
      long progressMillis, int readers, long ops, int rounds, Path ioLog, RowShape shape, long batchBytes,
      Durability durability, IndexKind layout, long writeRate) {

    static Plan parse(String[] argv) {
      Args a = new Args(argv, OPTIONS);
      PaperWorkload workload = PaperWorkload.parse(a.get("workload", "write"));
      double scale = a.getDouble("scale", 1);
      long rows = Math.max(1, (long) (a.getLong("rows", ROWS) * scale));
      List<PaperKeys> keys = new ArrayList<>();
      for (String k : a.get("keys", "zipf,uniform").split(",")) {
        if (!k.isBlank()) {
          keys.add(PaperKeys.parse(k));
        }
      }
      if (workload != PaperWorkload.WRITE && keys.contains(PaperKeys.LATEST)) {
        throw new IllegalArgumentException("--keys latest runs with --workload write only (its readers would"
            + " not see which rows the writers inserted)");
      }
      String sweep = a.get("sweep", "");
      List<PaperConfig> configs = sweep.isBlank()
          ? PaperConfig.parseList(a.get("configs", PaperConfig.DEFAULT_SUITE))
          : PaperConfig.sweep(sweep);
      int writers = (int) a.getLong("writers", 4);
      RowShape shape = new RowShape((int) a.getLong("fields", RowShape.PAPER.fields()),
          (int) a.getLong("field-length", RowShape.PAPER.fieldLength()));
      boolean byBytes = !a.get("batch-bytes", "").isEmpty();
      if (byBytes && !a.get("batch", "").isEmpty()) {
        throw new IllegalArgumentException("give --batch (rows) or --batch-bytes, not both");
      }
      long batchBytes = byBytes ? a.getLong("batch-bytes", 0) : 0;
      int batch = byBytes ? shape.rowsForBytes(batchBytes) : (int) a.getLong("batch", 100);
      if (batch < 1) {
        throw new IllegalArgumentException("--batch must be at least 1 row: " + batch);
      }
      if (rows < writers) {
        throw new IllegalArgumentException("too few rows (" + rows + ") for " + writers + " writers; raise --scale");
      }
      long writeRate = a.getLong("write-rate", 0);
      if (writeRate < 0 || writeRate > 0 && workload != PaperWorkload.READ_WRITE) {
        throw new IllegalArgumentException("--write-rate takes rows per second (0: unpaced) and runs with --workload"
            + " read-write only, not " + writeRate + " with " + workload.label);
      }
      return new Plan(workload, keys, configs, rows, Math.max(2, (long) (a.getLong("key-space", KEY_SPACE) * scale)), writers,
          batch, (long) (a.getDouble("flush-mib", EngineWorkload.DEFAULT_FLUSH_MIB) * 1024 * 1024),
          (int) a.getLong("regions", Math.max(1, Math.round((double) rows / PAPER_ROWS_PER_REGION))),
          a.getLong("seed", 42), Path.of(a.get("out", "bench-paper")),
          Path.of(a.get("dir", System.getProperty("java.io.tmpdir"))),
          Arrays.stream(a.get("jvm", DEFAULT_JVM).trim().split("\\s+")).filter(s -> !s.isEmpty()).toList(),
          a.getLong("progress-ms", 10_000), (int) a.getLong("readers", 1),
          Math.max(writers, (long) (a.getLong("ops", OPS) * scale)), rounds(a),
          a.get("io-log", "").isBlank() ? null : Path.of(a.get("io-log", "")), shape, batchBytes,
          durability(a), layout(a), writeRate);
    }

    /** The table's durability: ASYNC_WAL unless {@code --durability} says otherwise (the paper's Figure 8 ran SYNC_WAL). */
    private static Durability durability(Args a) {
      String d = a.get("durability", DURABILITY.name());
      try {
        return Durability.valueOf(d.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--durability takes ASYNC_WAL, SYNC_WAL, FSYNC_WAL or SKIP_WAL, not '" + d + "'");
      }
    }

    /** The memory layout of Bellows' runs: the engine's default unless {@code --layout} says otherwise. */
    private static IndexKind layout(Args a) {
      String l = a.get("layout", PaperConfig.LAYOUT.name());
      try {
        return IndexKind.valueOf(l.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--layout takes " + Arrays.toString(IndexKind.values()) + ", not '" + l + "'");
      }
    }

    private static int rounds(Args a) {
      long rounds = a.getLong("rounds", 1);
      if (rounds < 1 || rounds > 100) {
        throw new IllegalArgumentException("--rounds takes 1 to 100, not " + rounds);
      }
      return (int) rounds;
    }

    /** The configurations in the order round {@code round} (from 0) runs them: rotated by the round. */
    List<PaperConfig> order(int round) {
      List<PaperConfig> out = new ArrayList<>(configs);
      Collections.rotate(out, -(round % out.size()));
      return out;
    }

    /** Rows a run writes in all (load and measured phase), for the progress lines. */
    long expectedRows() {
      return switch (workload) {
        case WRITE -> rows;
        case READ_WRITE -> rows + Math.max(writers - readers, rows / 5);
        case SCAN_WRITE -> rows + (long) (ops * PaperMixedRun.SCAN_WRITE_PUTS);
      };
    }

    List<String> childArgs(PaperConfig config, PaperKeys k, int round) {
      List<String> args = new ArrayList<>(List.of("--config", config.spec(), "--keys", k.label, "--rows",
          Long.toString(rows), "--key-space", Long.toString(keySpace), "--writers", Integer.toString(writers),
          "--batch", Integer.toString(batch), "--flush-mib", Double.toString(flushSize / 1048576.0), "--regions",
          Integer.toString(regions), "--seed", Long.toString(seed), "--dir", dir.toString(), "--progress-ms",
          Long.toString(progressMillis), "--workload", workload.label, "--readers", Integer.toString(readers),
          "--ops", Long.toString(ops), "--fields", Integer.toString(shape.fields()), "--field-length",
          Integer.toString(shape.fieldLength()), "--durability", durability.name(), "--layout", layout.name(),
          "--write-rate", Long.toString(writeRate)));
      if (ioLog != null) {
        args.addAll(List.of("--io-log", ioLogFile(config, k, round).toString()));
      }
      return args;
    }

    /** The I/O log of one run: {@code <keys>-<configuration>-r<round>.csv}, the name made file-safe. */
    Path ioLogFile(PaperConfig config, PaperKeys k, int round) {
      String name = k.label + "-" + config.spec().replaceAll("[^A-Za-z0-9._-]", "_") + "-r" + (round + 1) + ".csv";
      return ioLog.resolve(name);
    }

    List<String> configLabels() {
      return configs.stream().map(PaperConfig::spec).toList();
    }

    List<String> keyLabels() {
      return keys.stream().map(k -> k.label).toList();
    }
  }

  private PaperBench() {}

  public static void main(String[] argv) {
    System.exit(run(argv, new PrintWriter(System.out, true)));
  }

  /**
   * Runs the suite, printing to {@code out} (flushed line by line); returns the exit code: 0, 1 if
   * a run failed (the others still run and are reported), 2 for bad options.
   */
  public static int run(String[] argv, PrintWriter out) {
    if (Arrays.stream(argv).anyMatch(a -> a.equals("--charts-from") || a.startsWith("--charts-from="))) {
      return redraw(argv, out);
    }
    Plan plan;
    try {
      plan = Plan.parse(argv);
    } catch (IllegalArgumentException e) {
      out.println("bench paper: " + e.getMessage());
      return 2;
    }
    String preamble = preamble(plan);
    out.print(preamble);
    out.println();
    List<PaperResult> results = new ArrayList<>();
    int total = plan.rounds() * plan.keys().size() * plan.configs().size();
    long suiteStart = System.nanoTime();
    int done = 0;
    int failed = 0;
    for (int round = 0; round < plan.rounds(); round++) {
      for (PaperKeys k : plan.keys()) {
        for (PaperConfig c : plan.order(round)) {
          String tag = String.format(Locale.ROOT, "[%d/%d] %s %s", done + 1, total, k.label, c.spec());
          out.println(tag + " ...");
          long runStart = System.nanoTime();
          int remainingAfter = total - done - 1;
          double meanRunSeconds = done == 0 ? Double.NaN : (System.nanoTime() - suiteStart) / 1e9 / done;
          Progress progress = new Progress(out, tag, plan.expectedRows(), remainingAfter, meanRunSeconds);
          done++;
          PaperResult r;
          try {
            r = ChildJvm.run(ChildJvm.command(plan.jvmFlags(), plan.childArgs(c, k, round)), progress::report);
          } catch (RuntimeException e) {
            failed++;
            out.println(tag + ": FAILED: " + e.getMessage());
            continue;
          }
          results.add(r);
          out.printf(Locale.ROOT, "%s: %s (%.1f s in all)%n", tag, r.summary(), (System.nanoTime() - runStart) / 1e9);
        }
      }
    }
    PaperReport report = new PaperReport(plan.configLabels(), plan.keyLabels(), results);
    if (plan.workload() != PaperWorkload.WRITE) {
      report = report.withLatency(plan.workload() == PaperWorkload.READ_WRITE ? "get" : "scan");
    }
    String markdown = report.markdown(preamble);
    out.println();
    out.print(markdown.substring(preamble.length()));
    try {
      Files.createDirectories(plan.out());
      Files.writeString(plan.out().resolve("report.md"), markdown);
      Files.writeString(plan.out().resolve("runs.csv"), report.csv());
      List<Path> charts = PaperCharts.write(plan.out(), report, plan.configLabels(), plan.keyLabels());
      out.println();
      out.println("Wrote " + plan.out().resolve("report.md") + ", " + plan.out().resolve("runs.csv") + " and "
          + charts.size() + " charts (" + String.join(", ", charts.stream().map(p -> p.getFileName().toString())
          .toList()) + ")");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write to " + plan.out(), e);
    }
    if (failed > 0) {
      out.println(failed + " of " + total + " runs failed; their cells show '-'");
      return 1;
    }
    return 0;
  }

  /**
   * {@code --charts-from DIR/runs.csv [--out DIR]}: draws the charts again from a finished
   * invocation's CSV, with the current chart code, into {@code --out} (default: the CSV's folder),
   * without running anything. The configurations and key distributions keep the CSV's order.
   */
  static int redraw(String[] argv, PrintWriter out) {
    Path csv;
    Path dir;
    List<PaperResult> runs = new ArrayList<>();
    try {
      Args a = new Args(argv, Set.of("charts-from", "out"));
      csv = Path.of(a.get("charts-from", ""));
      Path parent = csv.toAbsolutePath().getParent();
      dir = Path.of(a.get("out", parent.toString()));
      List<String> lines = Files.readAllLines(csv);
      if (lines.size() < 2) {
        throw new IllegalArgumentException(csv + " holds no runs");
      }
      List<String> header = List.of(lines.get(0).split(","));
      for (String line : lines.subList(1, lines.size())) {
        if (!line.isBlank()) {
          runs.add(PaperResult.fromCsv(header, line));
        }
      }
    } catch (IllegalArgumentException e) {
      out.println("bench paper: " + e.getMessage());
      return 2;
    } catch (IOException e) {
      out.println("bench paper: cannot read " + e.getMessage());
      return 2;
    }
    List<String> configs = runs.stream().map(PaperResult::config).distinct().toList();
    List<String> keys = runs.stream().map(PaperResult::keys).distinct().toList();
    PaperReport report = new PaperReport(configs, keys, runs);
    String workload = runs.get(0).workload();
    if (!workload.equals(PaperWorkload.WRITE.label)) {
      report = report.withLatency(workload.equals(PaperWorkload.READ_WRITE.label) ? "get" : "scan");
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
    List<Path> charts = PaperCharts.write(dir, report, configs, keys);
    out.println("Drew " + charts.size() + " charts from " + csv + " into " + dir + " ("
        + String.join(", ", charts.stream().map(p -> p.getFileName().toString()).toList()) + ")");
    return 0;
  }

  /** The settings of the suite, printed first and kept at the top of the report. */
  static String preamble(Plan plan) {
    StringBuilder sb = new StringBuilder("# Bellows bench paper: the Accordion " + plan.workload().label
        + " workload\n\n");
    sb.append(String.format(Locale.ROOT, "* %s, %d CPUs, Java %s; started %s%n", System.getProperty("os.name"),
        Runtime.getRuntime().availableProcessors(), Runtime.version(), Instant.now()));
    sb.append(String.format(Locale.ROOT, "* workload: %,d rows per run of %d × %d-byte cells (%,d bytes of cells"
            + " per row), %d client threads, batches of %d rows%s, ASYNC_WAL, one table in %d region(s), key space"
            + " %,d rows, seed %d%n",
        plan.rows(), plan.shape().fields(), plan.shape().fieldLength(), plan.shape().rowBytes(), plan.writers(),
        plan.batch(), plan.batchBytes() > 0 ? String.format(Locale.ROOT, " (at least %,d bytes)", plan.batchBytes())
            : "", plan.regions(), plan.keySpace(), plan.seed()));
    switch (plan.workload()) {
      case READ_WRITE -> sb.append(String.format(Locale.ROOT, "* read-write: after loading those rows (not"
          + " reported), %d writer(s) put %,d more rows while %d reader(s) get single cells of rows of the same"
          + " distribution until the writers are done%s%n", Math.max(1, plan.writers() - readersOf(plan)),
          plan.expectedRows() - plan.rows(), readersOf(plan), plan.writeRate() > 0 ? String.format(Locale.ROOT,
              "; the writers paced to %,d rows/s in all (--write-rate), so that every store serves its readers"
              + " beside the same write load", plan.writeRate()) : ""));
      case SCAN_WRITE -> sb.append(String.format(Locale.ROOT, "* scan-write: after loading those rows (not"
          + " reported), %,d operations from %d threads: 95%% scans of 1–100 rows, 5%% puts%n", plan.ops(),
          plan.writers()));
      case WRITE -> { }
    }
    sb.append(String.format(Locale.ROOT, "* keys: %s (zipf = YCSB's scrambled zipfian, θ = 0.99%s)%n",
        String.join(", ", plan.keyLabels()), plan.keys().contains(PaperKeys.LATEST) ? "; latest = YCSB's latest: 5%"
            + " of puts insert new rows, the others update recent rows, the newest the most often" : ""));
    if (plan.rounds() > 1) {
      sb.append(String.format(Locale.ROOT, "* %d rounds, the configurations' order rotated each round; the tables"
          + " show each configuration's run of median throughput%n", plan.rounds()));
    }
    IndexKind layout = plan.layout();
    sb.append(String.format(Locale.ROOT, "* Bellows: flush size %.2f MiB, layout %s (ACTIVE_INDEX=%s,"
            + " SEGMENT_INDEX=%s, MSLAB=%s, chunks %s: %s unless a configuration sets them), durability %s%n",
        plan.flushSize() / 1048576.0, layout, layout.activeIndex, layout.segmentIndex, layout.mslab,
        layout.offHeap ? "off the heap" : "on the heap",
        layout == PaperConfig.LAYOUT ? "the engine's default" : "--layout", plan.durability()));
    for (PaperConfig c : plan.configs()) {
      if (c.isRocksDb()) {
        sb.append("* ").append(RocksDbRun.describe(c.peer(), plan.flushSize(), c.peerCompression())).append('\n');
      } else if (!c.familyKnobs().isEmpty()) {
        sb.append("* ").append(c.spec()).append(": ").append(c.familyKnobs()).append('\n');
      }
    }
    if (plan.ioLog() != null) {
      sb.append("* every flush and compaction of each write run logged in ").append(plan.ioLog()).append('\n');
    }
    sb.append("* each run in a fresh JVM: ").append(ChildJvm.javaExecutable()).append(' ')
        .append(String.join(" ", ChildJvm.ALWAYS)).append(' ').append(String.join(" ", plan.jvmFlags())).append('\n');
    sb.append("* this JVM: ").append(ManagementFactory.getRuntimeMXBean().getInputArguments()).append('\n');
    return sb.toString();
  }

  private static int readersOf(Plan plan) {
    return Math.max(1, Math.min(plan.readers(), plan.writers() - 1));
  }

  /** Turns the child's "rows written" reports into progress lines with a rate and ETAs. */
  private static final class Progress {
    private final PrintWriter out;
    private final String tag;
    private final long rows;
    private final int runsAfter;
    private final double meanRunSeconds;
    private final long start = System.nanoTime();
    private long lastRows;
    private long lastNanos = start;

    Progress(PrintWriter out, String tag, long rows, int runsAfter, double meanRunSeconds) {
      this.out = out;
      this.tag = tag;
      this.rows = rows;
      this.runsAfter = runsAfter;
      this.meanRunSeconds = meanRunSeconds;
    }

    void report(long written) {
      long now = System.nanoTime();
      if (written == 0) { // still opening the store: the rate starts with the first row
        lastNanos = now;
        return;
      }
      double rate = (written - lastRows) * 1e9 / Math.max(1, now - lastNanos);
      lastRows = written;
      lastNanos = now;
      double eta = rate > 0 ? (rows - written) / rate : Double.NaN;
      double runSoFar = (now - start) / 1e9;
      double perRun = Double.isNaN(meanRunSeconds) ? runSoFar + eta : meanRunSeconds;
      double suiteEta = eta + runsAfter * perRun;
      out.printf(Locale.ROOT, "    %s: %,d / %,d rows, %,.0f rows/s, ETA %s (suite %s)%n", tag, written, rows, rate,
          duration(eta), duration(suiteEta));
    }

    private static String duration(double s) {
      if (Double.isNaN(s) || s < 0) {
        return "?";
      }
      return s < 120 ? String.format(Locale.ROOT, "%.0f s", s) : String.format(Locale.ROOT, "%.1f min", s / 60);
    }
  }
}
