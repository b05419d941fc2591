package io.bellows.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * {@code bellows bench read}: the read-path benchmark of the SAC 2024 paper on dynamic data block
 * sizes and a KV cache (§5), with RocksDB in the same run. One column family of one cell per row
 * ({@link ReadRows}); each block layout ({@link ReadLayout}) is loaded, flushed and major-compacted
 * once, in its own JVM; then each workload ({@link ReadWorkload}) runs on a fresh copy of that
 * directory for each configuration of the layout ({@link ReadConfig}: KV cache or row cache off and
 * on), again each in a fresh JVM ({@link ChildJvm}, {@link ReadChild}). Prints and writes to {@code
 * --out} the {@link ReadReport} (Markdown and CSV) and the {@link ReadCharts}.
 *
 * <p>Every run uses the same seed, so every configuration sees the same key sequences per client
 * thread. One step at a time. Single-threaded driver; not reusable.
 */
public final class ReadBench {
  /** Rows at scale 1: about 500 MB with {@link RowSizes}' mean of ~500 B. */
  static final long ROWS = 1_000_000;
  /** Cache budget at scale 1, for both stores: the data set is several times larger. */
  static final long CACHE_BUDGET = 64L << 20;
  static final long OPS = 600_000;
  /**
   * Long enough for the JIT: on 2 cores C2 compiles the read path for 10–15 s (JFR), during which a
   * Bellows run is 2–4× slower than afterwards; RocksDB's native code needs no warm-up.
   */
  static final long WARMUP = 1_000_000;
  static final String DEFAULT_JVM = "-Xms4g -Xmx4g -XX:+UseG1GC";
  /** {@code --jvm inline}: every step in this JVM (for tests; runs then share a heap and JIT state). */
  static final String INLINE = "inline";

  private static final Set<String> OPTIONS = Set.of("scale", "out", "workloads", "configs", "seed", "rows", "ops",
      "warmup", "threads", "budget-mib", "dir", "jvm", "progress-ms", "window", "direct-io");

  /** Everything an invocation needs, parsed from the options. */
  record Plan(List<ReadConfig> configs, List<ReadWorkload> workloads, long rows, long budget, long ops, long warmup,
      int threads, long seed, Path out, Path dir, List<String> jvmFlags, long progressMillis, long window,
      boolean directIo) {

    static Plan parse(String[] argv) {
      Args a = new Args(argv, OPTIONS);
      double scale = a.getDouble("scale", 1);
      if (!(scale > 0)) {
        throw new IllegalArgumentException("--scale must be positive: " + scale);
      }
      List<ReadConfig> configs = ReadConfig.parseList(a.get("configs", ReadConfig.DEFAULT_SUITE));
      List<ReadWorkload> workloads = ReadWorkload.parseList(a.get("workloads", ReadWorkload.DEFAULT_SUITE));
      long rows = (long) (a.getLong("rows", ROWS) * scale);
      int threads = (int) a.getLong("threads", 4);
      if (threads < 1) {
        throw new IllegalArgumentException("--threads must be positive: " + threads);
      }
      if (rows < 20) {
        throw new IllegalArgumentException("too few rows (" + rows + "); raise --scale");
      }
      long budget = (long) (a.getDouble("budget-mib", CACHE_BUDGET >> 20) * scale * 1048576);
      if (budget < 2 * ReadConfig.ROW_CACHE_BYTES) {
        // The row caches take 10 MiB out of the budget; keep at least as much for blocks.
        budget = 2 * ReadConfig.ROW_CACHE_BYTES;
      }
      long ops = Math.max(threads, (long) (a.getLong("ops", OPS) * scale));
      long warmup = (long) (a.getLong("warmup", WARMUP) * scale);
      return new Plan(configs, workloads, rows, budget, ops, warmup, threads, a.getLong("seed", 42),
          Path.of(a.get("out", "bench-read")), Path.of(a.get("dir", System.getProperty("java.io.tmpdir"))),
          Arrays.stream(a.get("jvm", DEFAULT_JVM).trim().split("\\s+")).filter(s -> !s.isEmpty()).toList(),
          a.getLong("progress-ms", 10_000), window(a), directIo(a));
    }

    /** Whether the measured runs read their files past the page cache ({@code --direct-io true|false}). */
    private static boolean directIo(Args a) {
      String v = a.get("direct-io", "false").trim().toLowerCase(Locale.ROOT);
      if (!v.equals("true") && !v.equals("false")) {
        throw new IllegalArgumentException("--direct-io takes true or false, not '" + v + "'");
      }
      return v.equals("true");
    }

    /** Operations per window of the time axis ({@code --window}); 0, the default, for none. */
    private static long window(Args a) {
      long w = a.getLong("window", 0);
      if (w < 0) {
        throw new IllegalArgumentException("--window takes a number of operations, 0 for none: " + w);
      }
      return w;
    }

    boolean inline() {
      return jvmFlags.equals(List.of(INLINE));
    }

    List<ReadLayout> layouts() {
      LinkedHashSet<ReadLayout> l = new LinkedHashSet<>();
      configs.forEach(c -> l.add(c.layout()));
      return List.copyOf(l);
    }

    List<String> loadArgs(ReadLayout layout, Path loadDir) {
      return List.of("--mode", "load", "--layout", layout.label, "--dir", loadDir.toString(), "--rows",
          Long.toString(rows), "--seed", Long.toString(seed), "--budget", Long.toString(budget), "--progress-ms",
          Long.toString(progressMillis));
    }

    List<String> runArgs(ReadConfig config, ReadWorkload workload, Path runDir) {
      return List.of("--mode", "run", "--config", config.label(), "--workload", workload.label, "--dir",
          runDir.toString(), "--rows", Long.toString(rows), "--seed", Long.toString(seed), "--budget",
          Long.toString(budget), "--threads", Integer.toString(threads), "--warmup", Long.toString(warmup), "--ops",
          Long.toString(ops), "--progress-ms", Long.toString(progressMillis), "--window", Long.toString(window), "--direct-io",
          Boolean.toString(directIo));
    }
  }

  private ReadBench() {}

  public static void main(String[] argv) {
    System.exit(run(argv, new PrintWriter(System.out, true)));
  }

  /**
   * Runs the suite, printing to {@code out} (flushed line by line); returns the exit code: 0, 1 if
   * a step failed (the others still run and are reported), 2 for bad options.
   */
  public static int run(String[] argv, PrintWriter out) {
    Plan plan;
    try {
      plan = Plan.parse(argv);
    } catch (IllegalArgumentException e) {
      out.println("bench read: " + e.getMessage());
      return 2;
    }
    String preamble = preamble(plan);
    out.print(preamble);
    out.println();
    Path work;
    try {
      Files.createDirectories(plan.dir());
      work = Files.createTempDirectory(plan.dir(), "bellows-bench-read-");
    } catch (IOException e) {
      out.println("bench read: cannot create a directory in " + plan.dir() + ": " + e.getMessage());
      return 2;
    }
    List<ReadResult> results = new ArrayList<>();
    int steps = plan.layouts().size() + plan.configs().size() * plan.workloads().size();
    int step = 0;
    int failed = 0;
    long suiteStart = System.nanoTime();
    try {
      for (ReadLayout layout : plan.layouts()) {
        Path loaded = work.resolve("load");
        String tag = String.format(Locale.ROOT, "[%d/%d] load %s", ++step, steps, layout.label);
        ReadResult load = step(plan, tag, plan.loadArgs(layout, loaded), out, suiteStart, step, steps);
        List<ReadConfig> ofLayout = plan.configs().stream().filter(c -> c.layout() == layout).toList();
        if (load == null) {
          failed += 1 + ofLayout.size() * plan.workloads().size();
          step += ofLayout.size() * plan.workloads().size();
          delete(loaded);
          continue;
        }
        out.printf(Locale.ROOT, "%s: %,.0f data blocks, %.1f MiB of files, %.1f s%n", tag,
            load.get(ReadResult.DATA_BLOCKS), load.get(ReadResult.FILE_BYTES) / 1048576,
            load.get(ReadResult.LOAD_SECONDS));
        for (ReadWorkload w : plan.workloads()) {
          for (ReadConfig c : ofLayout) {
            Path copy = work.resolve("run");
            copyTree(loaded, copy);
            String runTag = String.format(Locale.ROOT, "[%d/%d] %s %s", ++step, steps, w.label, c.label());
            ReadResult r = step(plan, runTag, plan.runArgs(c, w, copy), out, suiteStart, step, steps);
            delete(copy);
            if (r == null) {
              failed++;
              continue;
            }
            r = r.withDefaults(java.util.Map.of(ReadResult.DATA_BLOCKS, load.get(ReadResult.DATA_BLOCKS),
                ReadResult.FILE_BYTES, load.get(ReadResult.FILE_BYTES)));
            results.add(r);
            out.println(runTag + ": " + r.summary());
          }
        }
        delete(loaded);
      }
    } finally {
      delete(work);
    }
    ReadReport report = new ReadReport(plan.configs().stream().map(ReadConfig::label).toList(),
        plan.workloads().stream().map(w -> w.label).toList(), results);
    String markdown = report.markdown(preamble);
    out.println();
    out.print(markdown.substring(preamble.length()));
    try {
      Files.createDirectories(plan.out());
      Files.writeString(plan.out().resolve("report.md"), markdown);
      Files.writeString(plan.out().resolve("runs.csv"), report.csv());
      if (report.hasWindows()) {
        Files.writeString(plan.out().resolve("windows.csv"), report.windowsCsv());
      }
      List<Path> charts = ReadCharts.write(plan.out(), report);
      out.println();
      out.println("Wrote " + plan.out().resolve("report.md") + ", " + plan.out().resolve("runs.csv") + " and "
          + charts.size() + " charts (" + String.join(", ", charts.stream().map(p -> p.getFileName().toString())
          .toList()) + ")");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write to " + plan.out(), e);
    }
    if (failed > 0) {
      out.println(failed + " of " + steps + " steps failed; their cells show '-'");
      return 1;
    }
    return 0;
  }

  /** Runs one step in a child JVM (or inline); null if it failed, which is printed. */
  private static ReadResult step(Plan plan, String tag, List<String> args, PrintWriter out, long suiteStart,
      int step, int steps) {
    out.println(tag + " ...");
    Progress progress = new Progress(out, tag, suiteStart, step, steps);
    try {
      if (plan.inline()) {
        return ReadChild.run(args.toArray(new String[0]), line -> {
          if (line.startsWith(ReadChild.PROGRESS_PREFIX)) {
            progress.accept(line.substring(ReadChild.PROGRESS_PREFIX.length()));
          }
        });
      }
      return ReadResult.fromLine(ChildJvm.run(ChildJvm.command(ReadChild.class, plan.jvmFlags(), args),
          ReadResult.LINE_PREFIX, ReadChild.PROGRESS_PREFIX, progress));
    } catch (Exception e) {
      out.println(tag + ": FAILED: " + e.getMessage());
      return null;
    }
  }

  /** The settings of the suite, printed first and kept at the top of the report. */
  static String preamble(Plan plan) {
    StringBuilder sb = new StringBuilder("# Bellows bench read: the adaptive read path (SAC 2024)\n\n");
    sb.append(String.format(Locale.ROOT, "* %s, %d CPUs, Java %s; started %s%n", System.getProperty("os.name"),
        Runtime.getRuntime().availableProcessors(), Runtime.version(), Instant.now()));
    sb.append(String.format(Locale.ROOT, "* data: %,d rows of one cell, keys of %d digits in item order, values"
            + " of %d B – %d KiB (80%% ≤ 256 B, mean ~500 B), loaded, flushed and major-compacted once per block"
            + " layout; every run on a fresh copy%n", plan.rows(), ReadRows.KEY_DIGITS, RowSizes.MIN,
        RowSizes.MAX / 1024));
    sb.append(String.format(Locale.ROOT, "* runs: %d client threads, %,d warm-up operations (not reported), then"
            + " %,d measured operations%s; seed %d%n", plan.threads(), plan.warmup(), plan.ops(),
        plan.window() > 0 ? String.format(Locale.ROOT, " (figures also per window of %,d)", plan.window()) : "",
        plan.seed()));
    sb.append(String.format(Locale.ROOT, "* workloads: %s (B: 95%% gets, 5%% same-size updates; C: gets;"
            + " zipf = YCSB's scrambled zipfian θ 0.99; CBMG: sessions, hot keys %.0f%% of rows)%n",
        String.join(", ", plan.workloads().stream().map(w -> w.label).toList()), ReadWorkload.CBMG_HOT_SHARE * 100));
    if (plan.directIo()) {
      sb.append("* files read with direct I/O (O_DIRECT) in the measured runs: past the page cache, for both"
          + " stores (RocksDB's use_direct_reads)\n");
    }
    sb.append(String.format(Locale.ROOT, "* cache budget %.0f MiB for either store: Bellows' L1 (no L2), the KV"
            + " cache (+KVC) starting at %d MiB of it; RocksDB's block cache, less a %d MiB row cache"
            + " (+rowcache)%n", plan.budget() / 1048576.0, ReadConfig.ROW_CACHE_BYTES >> 20,
        ReadConfig.ROW_CACHE_BYTES >> 20));
    if (plan.configs().stream().anyMatch(ReadConfig::offHeap)) {
      sb.append(String.format(Locale.ROOT, "* @L2: Bellows' data blocks in the off-heap L2, read in place: without"
          + " +KVC the whole budget, no L1 and so no KV cache; +KVC@L2: an L1 of %d MiB that takes no data blocks"
          + " (l1.admission NONE) holds the KV cache (up to 0.9 of it), L2 the rest%n", ReadConfig.KV_L1_BYTES >> 20));
    }
    for (ReadLayout l : plan.layouts()) {
      sb.append("* ").append(l.label).append(": ").append(l.describe());
      if (l.isRocksDb()) {
        sb.append(' ').append(RocksDbReadStore.version())
            .append(", no compression, 10-bit Bloom filter, index and filter blocks in the block cache");
      }
      sb.append('\n');
    }
    sb.append("* read amplification: file bytes read ÷ bytes returned (key and value), file 4 KiB pages read ÷"
        + " Σ per get of ceil(bytes returned / 4096); hit ratio: file lookups answered by a cache ÷ file lookups\n");
    sb.append("* each step in a fresh JVM: ").append(plan.inline() ? "no (inline)" : ChildJvm.javaExecutable() + " "
        + String.join(" ", ChildJvm.ALWAYS) + " " + String.join(" ", plan.jvmFlags())).append('\n');
    sb.append("* this JVM: ").append(ManagementFactory.getRuntimeMXBean().getInputArguments()).append('\n');
    return sb.toString();
  }

  static void copyTree(Path from, Path to) {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy " + from + " to " + to, e);
    }
  }

  static void delete(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }

  /** Turns a step's progress lines into lines with a rate and an ETA of the step. */
  private static final class Progress implements Consumer<String> {
    private final PrintWriter out;
    private final String tag;
    private final long suiteStart;
    private final int step;
    private final int steps;
    private String phase = "";
    private long lastDone;
    private long lastNanos = System.nanoTime();

    Progress(PrintWriter out, String tag, long suiteStart, int step, int steps) {
      this.out = out;
      this.tag = tag;
      this.suiteStart = suiteStart;
      this.step = step;
      this.steps = steps;
    }

    @Override
    public void accept(String line) {
      String[] f = line.trim().split(" ");
      long now = System.nanoTime();
      long done = Long.parseLong(f[1]);
      long total = Long.parseLong(f[2]);
      if (total == 0) { // a phase without a count, such as the load's compaction
        out.printf(Locale.ROOT, "    %s: %s ...%n", tag, f[0]);
        return;
      }
      if (!f[0].equals(phase)) { // the phase began somewhere since the last line: no rate yet
        phase = f[0];
        lastDone = done;
        lastNanos = now;
        out.printf(Locale.ROOT, "    %s: %s %,d / %,d%n", tag, phase, done, total);
        return;
      }
      double rate = (done - lastDone) * 1e9 / Math.max(1, now - lastNanos);
      lastDone = done;
      lastNanos = now;
      double eta = rate > 0 && total > 0 ? (total - done) / rate : Double.NaN;
      double perStep = (now - suiteStart) / 1e9 / Math.max(1, step - 1);
      out.printf(Locale.ROOT, "    %s: %s %,d / %,d, %,.0f/s, ETA %s (suite about %s)%n", tag, phase, done, total,
          rate, duration(eta), step > 1 ? duration(eta + perStep * (steps - step)) : "?");
    }

    private static String duration(double s) {
      if (Double.isNaN(s) || s < 0) {
        return "?";
      }
      return s < 120 ? String.format(Locale.ROOT, "%.0f s", s) : String.format(Locale.ROOT, "%.1f min", s / 60);
    }
  }
}
