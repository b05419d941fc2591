package io.bellows.ycsb.hbase;

import io.bellows.client.Bellows;
import io.bellows.config.EngineOptions;
import io.bellows.ycsb.YcsbRun;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * What HBase's client API costs on Bellows: YCSB's load and run phases through Bellows' own binding
 * ({@code BellowsClient}) and through {@link HBaseApiClient} over {@code ConnectionFactory} with
 * Bellows plugged in, back to back in one invocation. Each phase runs in a fresh JVM (YCSB's own
 * client, {@link YcsbRun#fork}), each binding's load in a fresh data directory that its run phase
 * then uses; both bindings get the same workload file, properties, threads, counts and JVM flags.
 * Between load and run the store is settled the same way for both (flushed and major-compacted here,
 * through Bellows' API, not measured), so a run phase meets one sorted file rather than whatever
 * compactions the load left behind. The order of the two bindings alternates over rounds and
 * workloads, so drift (page cache, the machine's other work) does not favour one; an unreported
 * load of a tenth of the records with each binding comes first (the first JVMs of a session start
 * slower). YCSB 0.17 has no seed: the load's keys are the same for both, the values and the run's key
 * choices are drawn anew.
 *
 * <p>Prints a line per phase as it ends, then the report ({@link CostReport}); writes {@code
 * report.md}, {@code runs.csv}, each child's output in {@code logs/} and, with {@code --jfr}, a
 * flight recording per child in {@code jfr/} to {@code --out}. A phase that fails (exit status, no
 * result, any operation not {@code OK}) stops the comparison: exit status 1.
 *
 * <p>HBase's client does not start on Java 24 or later (Hadoop's login calls {@code
 * Subject.getSubject}), so this refuses to run there (exit status 2).
 */
public final class AdapterCost {
  static final String USAGE = """
      usage: AdapterCost [--workloads a,c] [--records 200000] [--ops 400000] [--threads 4] [--rounds 2]
                         [--scale S] [--out DIR] [--dir DIR] [--jvm "FLAGS"] [--jfr] [-p name=value]...
        --workloads  YCSB core workloads (a..f) or workload files, comma-separated (default a,c)
        --records    records loaded (default 200000), × scale
        --ops        operations of the run phase (default 400000), × scale
        --threads    YCSB client threads (default 4)
        --rounds     rounds; each runs every workload with both bindings, in alternating order (default 2)
        --scale      multiplies records and operations (default 1)
        --out        report.md, runs.csv, logs/ (and jfr/) go here (default bench-ycsb-hbase)
        --dir        where the data directories live, each deleted after its run (default: a temporary directory)
        --jvm        each child JVM's flags (default "-Xmx2g -XX:+UseG1GC --add-opens=java.base/java.nio=ALL-UNNAMED")
        --jfr        a flight recording (settings=profile) per child, in OUT/jfr
        -p           a YCSB property for both bindings, e.g. -p fieldcount=4 (repeatable)
      """;

  /** The family both bindings write (the name is part of every cell's bytes, so it must be the same). */
  static final String FAMILY = "family";

  /**
   * Both children's JVM flags by default: YCSB's run's, and the opening HBase's client needs on Java
   * 17 to read and write primitives through {@code Unsafe} (its {@code Bytes} checks {@code
   * java.nio.Bits.unaligned()}; HBase's own scripts pass it), without which it falls back to slower
   * code.
   */
  static final List<String> JVM_FLAGS = Stream.concat(YcsbRun.DEFAULT_JVM_FLAGS.stream(),
      Stream.of("--add-opens=java.base/java.nio=ALL-UNNAMED")).toList();

  private AdapterCost() {}

  /** The parsed command line. */
  record Plan(List<String> workloads, long records, long ops, int threads, int rounds, Path out, Path dir,
      List<String> jvmFlags, boolean jfr, List<String> properties) {

    static Plan parse(String... argv) {
      List<String> workloads = List.of("a", "c");
      long records = 200_000;
      long ops = 400_000;
      int threads = 4;
      int rounds = 2;
      double scale = 1;
      Path out = Path.of("bench-ycsb-hbase");
      Path dir = null;
      List<String> jvm = JVM_FLAGS;
      boolean jfr = false;
      List<String> properties = new ArrayList<>();
      for (int i = 0; i < argv.length; i++) {
        String a = argv[i];
        if (a.equals("--jfr")) {
          jfr = true;
          continue;
        }
        if (i + 1 >= argv.length) {
          throw new IllegalArgumentException("missing value for " + a);
        }
        String v = argv[++i];
        switch (a) {
          case "--workloads" -> workloads = List.of(v.split(","));
          case "--records" -> records = positive(a, Long.parseLong(v.replace("_", "")));
          case "--ops" -> ops = positive(a, Long.parseLong(v.replace("_", "")));
          case "--threads" -> threads = (int) positive(a, Integer.parseInt(v));
          case "--rounds" -> rounds = (int) positive(a, Integer.parseInt(v));
          case "--scale" -> {
            scale = Double.parseDouble(v);
            if (!(scale > 0)) {
              throw new IllegalArgumentException("--scale must be positive: " + v);
            }
          }
          case "--out" -> out = Path.of(v);
          case "--dir" -> dir = Path.of(v);
          case "--jvm" -> jvm = List.of(v.trim().split("\\s+"));
          case "-p" -> {
            if (v.indexOf('=') <= 0) {
              throw new IllegalArgumentException("-p takes name=value: " + v);
            }
            properties.add(v);
          }
          default -> throw new IllegalArgumentException("unknown option " + a);
        }
      }
      return new Plan(workloads, Math.max(1, Math.round(records * scale)), Math.max(1, Math.round(ops * scale)),
          threads, rounds, out, dir, jvm, jfr, List.copyOf(properties));
    }

    private static long positive(String option, long v) {
      if (v < 1) {
        throw new IllegalArgumentException(option + " must be at least 1: " + v);
      }
      return v;
    }

    String describe() {
      return String.format(Locale.ROOT, "workloads %s, %,d records, %,d operations, %d threads, %d rounds, family '%s',"
              + " child JVM %s%s, YCSB properties %s; Java %s, %d CPUs, %s", workloads, records, ops, threads, rounds,
          FAMILY, String.join(" ", jvmFlags), jfr ? " + JFR" : "", properties, Runtime.version(),
          Runtime.getRuntime().availableProcessors(), LocalDate.now());
    }
  }

  /** A phase that did not give a measurement. */
  static final class PhaseFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PhaseFailed(String message) {
      super(message);
    }
  }

  public static void main(String[] argv) throws Exception {
    if (Arrays.asList(argv).contains("--help")) {
      System.out.print(USAGE);
      return;
    }
    Plan plan;
    try {
      plan = Plan.parse(argv);
    } catch (IllegalArgumentException e) {
      System.err.println("AdapterCost: " + e.getMessage());
      System.err.print(USAGE);
      System.exit(2);
      return;
    }
    if (!hbaseClientCanStart()) {
      System.err.println("AdapterCost: HBase's client cannot start on Java " + Runtime.version().feature()
          + " (Hadoop's UserGroupInformation calls Subject.getSubject, unsupported since Java 24); use Java 17 or 21");
      System.exit(2);
    }
    try {
      run(plan, System.out);
    } catch (PhaseFailed e) {
      System.err.println("AdapterCost: " + e.getMessage());
      System.exit(1);
    }
  }

  /** Whether Hadoop's login, which HBase's {@code ConnectionFactory} goes through, works on this JVM. */
  @SuppressWarnings("removal")
  static boolean hbaseClientCanStart() {
    try {
      javax.security.auth.Subject.getSubject(java.security.AccessController.getContext());
      return true;
    } catch (UnsupportedOperationException e) {
      return false;
    }
  }

  /** Runs the plan, printing progress and the report to {@code log}; returns the report. */
  static CostReport run(Plan plan, PrintStream log) throws IOException, InterruptedException {
    Files.createDirectories(plan.out().resolve("logs"));
    if (plan.jfr()) {
      Files.createDirectories(plan.out().resolve("jfr"));
    }
    Path workloadDir = Files.createDirectories(plan.out().resolve("workloads"));
    List<Path> workloadFiles = new ArrayList<>();
    for (String w : plan.workloads()) {
      workloadFiles.add(YcsbRun.workloadFile(w, workloadDir));
    }
    boolean ownDir = plan.dir() == null;
    Path dir = ownDir ? Files.createTempDirectory("bellows-ycsb-hbase-") : Files.createDirectories(plan.dir());
    log.println("# YCSB through HBase's API on Bellows vs Bellows' own binding");
    log.println("# " + plan.describe());
    log.println("# output in " + plan.out().toAbsolutePath() + ", data under " + dir.toAbsolutePath());
    List<CostReport.Run> runs = new ArrayList<>();
    try {
      warmUp(plan, workloadFiles.get(0), dir, log);
      Progress progress = new Progress(plan.rounds() * plan.workloads().size() * 4);
      for (int round = 1; round <= plan.rounds(); round++) {
        for (int wi = 0; wi < plan.workloads().size(); wi++) {
          List<Binding> order = (round + wi) % 2 == 1
              ? List.of(Binding.NATIVE, Binding.HBASE_API) : List.of(Binding.HBASE_API, Binding.NATIVE);
          for (int position = 0; position < 2; position++) {
            runs.addAll(loadAndRun(plan, round, plan.workloads().get(wi), workloadFiles.get(wi), order.get(position),
                position, dir, progress, log));
          }
        }
      }
    } finally {
      if (ownDir) {
        deleteTree(dir);
      }
    }
    CostReport report = new CostReport(runs);
    String md = "# YCSB through HBase's API on Bellows: the adapter's cost\n\n" + plan.describe() + "\n\n"
        + report.markdown();
    Files.writeString(plan.out().resolve("report.md"), md);
    Files.writeString(plan.out().resolve("runs.csv"), report.csv());
    log.println();
    log.print(md);
    return report;
  }

  /** A load of a tenth of the records with each binding, not reported: the first JVMs of a session start slower. */
  private static void warmUp(Plan plan, Path workloadFile, Path dir, PrintStream log)
      throws IOException, InterruptedException {
    Plan warmup = new Plan(plan.workloads(), Math.max(1, plan.records() / 10), 1, plan.threads(), 1, plan.out(), dir,
        plan.jvmFlags(), false, plan.properties());
    for (Binding b : Binding.values()) {
      Path data = dir.resolve("warmup-" + b.label);
      try {
        YcsbOutput o = phase(warmup, workloadFile, b, "load", data, "warmup-" + b.label + "-load");
        log.printf(Locale.ROOT, "warm-up, %-9s load %,9.0f ops/s (not reported)%n", b.label, o.throughput());
      } finally {
        deleteTree(data);
      }
    }
  }

  /** Counts the measured phases for the progress lines. */
  private static final class Progress {
    final int total;
    final long start = System.nanoTime();
    int done;

    Progress(int total) {
      this.total = total;
    }
  }

  /** One binding's load, the settling, and its run, in a fresh data directory deleted after. */
  private static List<CostReport.Run> loadAndRun(Plan plan, int round, String workload, Path workloadFile, Binding b,
      int position, Path dir, Progress progress, PrintStream log) throws IOException, InterruptedException {
    List<CostReport.Run> runs = new ArrayList<>();
    Path data = dir.resolve(String.format("r%d-%s-%s", round, name(workload), b.label));
    deleteTree(data);
    try {
      for (String phase : List.of("load", "run")) {
        YcsbOutput o = phase(plan, workloadFile, b, phase, data,
            String.format("r%d-%s-%s-%s", round, name(workload), b.label, phase));
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        runs.add(new CostReport.Run(round, workload, b, phase, position, o, load));
        progress.done++;
        log.printf(Locale.ROOT, "[%d/%d %4.0f s] round %d, workload %s, %-9s %-4s %,9.0f ops/s, steady %,9.0f"
                + " (%,.1f s, GC %,d ms, load average %.1f)%n", progress.done, progress.total,
            (System.nanoTime() - progress.start) / 1e9, round, workload, b.label, phase, o.throughput(),
            o.steadyThroughput(), o.runtimeMillis() / 1000.0, o.gcMillis(), load);
        if (phase.equals("load")) {
          settle(data);
        }
      }
    } finally {
      deleteTree(data);
    }
    return runs;
  }

  /** Flushes and major-compacts every table of the store, so that both bindings' run phases start alike. */
  private static void settle(Path data) {
    try (Bellows db = Bellows.open(data, EngineOptions.defaults())) {
      for (String table : db.listTables()) {
        db.flush(table);
        db.majorCompact(table);
      }
    }
  }

  /** One YCSB phase of one binding in a child JVM; its output goes to {@code OUT/logs/TAG.txt}. */
  private static YcsbOutput phase(Plan plan, Path workloadFile, Binding b, String phase, Path data, String tag)
      throws IOException, InterruptedException {
    // A status line every second: the steady throughput is measured between them.
    List<String> props = new ArrayList<>(List.of("recordcount=" + plan.records(), "operationcount=" + plan.ops(),
        "status.interval=1"));
    props.addAll(b.properties(data.toAbsolutePath(), FAMILY));
    props.addAll(plan.properties());
    List<String> jvm = new ArrayList<>(plan.jvmFlags());
    if (plan.jfr()) {
      jvm.add("-XX:StartFlightRecording=filename=" + plan.out().resolve("jfr").resolve(tag + ".jfr").toAbsolutePath()
          + ",settings=profile");
    }
    Path logFile = plan.out().resolve("logs").resolve(tag + ".txt");
    int exit = YcsbRun.fork(jvm, YcsbRun.clientArgsOfClass(phase, b.dbClass, workloadFile, plan.threads(), props),
        ProcessBuilder.Redirect.to(logFile.toFile()));
    String text = Files.readString(logFile);
    if (exit != 0) {
      throw failed(tag, "exit status " + exit, logFile, text);
    }
    YcsbOutput o;
    try {
      o = YcsbOutput.parse(text);
    } catch (IllegalArgumentException e) {
      throw failed(tag, e.getMessage(), logFile, text);
    }
    if (!o.failures().isEmpty()) {
      throw failed(tag, "operations failed " + o.failures(), logFile, text);
    }
    return o;
  }

  private static PhaseFailed failed(String tag, String why, Path logFile, String text) {
    List<String> lines = text.lines().toList();
    String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    return new PhaseFailed(tag + ": " + why + " (output in " + logFile + "); its last lines:\n" + tail);
  }

  /** A workload's name for file names: the letter, or the file's name. */
  private static String name(String workload) {
    return Path.of(workload).getFileName().toString().replaceAll("[^A-Za-z0-9_.-]", "_");
  }

  private static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      for (Path f : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(f);
      }
    }
  }
}
