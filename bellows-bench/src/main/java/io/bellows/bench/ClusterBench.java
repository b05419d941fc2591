package io.bellows.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code bellows bench cluster --test idle|efficiency|catchup}: three of the cluster's targets
 * measured on this machine, each against a peer measured in the same run ({@link ClusterIdle},
 * {@link ClusterEfficiency}, {@link ClusterCatchup}). Servers are real {@code bellows server}
 * processes started from the product jar ({@link LocalServers}); the driver is their client. Prints
 * progress lines, then writes {@code report.md} and a CSV to {@code --out}. Single-threaded driver.
 */
public final class ClusterBench {
  /** The measurements, by the name {@code --test} takes. */
  enum Test {
    IDLE("idle", "idle.csv"),
    EFFICIENCY("efficiency", "runs.csv"),
    CATCHUP("catchup", "catchup.csv");

    final String label;
    final String csv;

    Test(String label, String csv) {
      this.label = label;
      this.csv = csv;
    }

    static Test parse(String s) {
      for (Test t : values()) {
        if (t.label.equals(s.trim().toLowerCase(Locale.ROOT))) {
          return t;
        }
      }
      throw new IllegalArgumentException("--test takes idle, efficiency or catchup, not '" + s + "'");
    }
  }

  /** The servers' JVM flags unless {@code --jvm} says otherwise: the same for a member and the single server. */
  static final String DEFAULT_JVM = "-Xms1g -Xmx1g -XX:+UseG1GC";
  /** Efficiency: rows per run and the key space at scale 1. */
  static final long ROWS = 300_000;
  static final long KEY_SPACE = 1_000_000;
  /** Idle: tables (groups) at scale 1; settling and sampling times. */
  static final int TABLES = 100;
  static final long SETTLE_SECONDS = 75;
  static final long SAMPLE_SECONDS = 60;
  /** Catch-up: the leader's sorted files at scale 1. */
  static final long FILL_MIB = 256;

  private static final Set<String> OPTIONS = Set.of("test", "scale", "out", "dir", "product", "jvm", "jfr", "seed",
      "rounds", "rows", "key-space", "writers", "batch", "tables", "settle-s", "sample-s", "fill-mib");

  /** Everything an invocation needs, parsed from the options. */
  record Plan(Test test, double scale, Path out, Path dir, Path product, List<String> jvmFlags, Path jfr, long seed,
      int rounds, long rows, long keySpace, int writers, int batch, int tables, long settleSeconds, long sampleNanos,
      long fillBytes) {

    static Plan parse(String[] argv) {
      Args a = new Args(argv, OPTIONS);
      String name = a.get("test", "");
      if (name.isBlank()) {
        throw new IllegalArgumentException("say which measurement: --test idle|efficiency|catchup");
      }
      Test test = Test.parse(name);
      double scale = a.getDouble("scale", 1);
      if (!(scale > 0)) {
        throw new IllegalArgumentException("--scale must be above 0, not " + scale);
      }
      long rounds = a.getLong("rounds", 3);
      if (rounds < 1 || rounds > 100) {
        throw new IllegalArgumentException("--rounds takes 1 to 100, not " + rounds);
      }
      int writers = (int) a.getLong("writers", 4);
      int batch = (int) a.getLong("batch", 100);
      if (writers < 1 || batch < 1) {
        throw new IllegalArgumentException("--writers and --batch must be at least 1");
      }
      long rows = Math.max(writers, (long) (a.getLong("rows", ROWS) * scale));
      // --tables and --fill-mib given outright are taken as they are; the defaults scale.
      int tables = (int) Math.max(1, a.get("tables", "").isEmpty() ? Math.round(TABLES * scale) : a.getLong("tables", TABLES));
      long settle = a.getLong("settle-s", SETTLE_SECONDS);
      long sample = a.getLong("sample-s", SAMPLE_SECONDS);
      if (settle < 0 || sample < 1) {
        throw new IllegalArgumentException("--settle-s must be at least 0 and --sample-s at least 1");
      }
      long fill = (long) (a.getDouble("fill-mib", FILL_MIB * scale) * 1048576);
      String jfr = a.get("jfr", "");
      return new Plan(test, scale, Path.of(a.get("out", "bench-cluster-" + test.label)),
          Path.of(a.get("dir", System.getProperty("java.io.tmpdir"))),
          Path.of(a.get("product", LocalServers.defaultProduct().toString())),
          Arrays.stream(a.get("jvm", DEFAULT_JVM).trim().split("\\s+")).filter(s -> !s.isEmpty()).toList(),
          jfr.isBlank() ? null : Path.of(jfr), a.getLong("seed", 42), (int) rounds, rows,
          Math.max(2, (long) (a.getLong("key-space", KEY_SPACE) * scale)), writers, batch, tables, settle,
          sample * 1_000_000_000L, Math.max(1 << 20, fill));
    }

    /** This plan with its servers' directories under {@code d}. */
    Plan withDir(Path d) {
      return new Plan(test, scale, out, d, product, jvmFlags, jfr, seed, rounds, rows, keySpace, writers, batch, tables,
          settleSeconds, sampleNanos, fillBytes);
    }
  }

  private ClusterBench() {}

  public static void main(String[] argv) {
    System.exit(run(argv, new PrintWriter(System.out, true)));
  }

  /** Runs the measurement, printing to {@code out}; returns 0, 1 if it failed, 2 for bad options. */
  public static int run(String[] argv, PrintWriter out) {
    Plan plan;
    try {
      plan = Plan.parse(argv);
    } catch (IllegalArgumentException e) {
      out.println("bench cluster: " + e.getMessage());
      return 2;
    }
    if (!Files.isRegularFile(plan.product())) {
      out.println("bench cluster: no product jar at " + plan.product() + " (build it: mvn -B package -DskipTests -pl"
          + " bellows-cli -am, or name it with --product)");
      return 2;
    }
    String preamble = preamble(plan);
    out.print(preamble);
    out.println();
    String markdown;
    String csv;
    Path base = null;
    double loadAtStart = loadAverage();
    try {
      Files.createDirectories(plan.dir());
      base = Files.createTempDirectory(plan.dir(), "bench-cluster-");
      plan = plan.withDir(base);
      switch (plan.test()) {
        case IDLE -> {
          ClusterIdle.Result r = ClusterIdle.run(plan, out);
          markdown = r.markdown(preamble);
          csv = r.csv();
        }
        case EFFICIENCY -> {
          ClusterEfficiency.Result r = ClusterEfficiency.run(plan, out);
          markdown = r.markdown(preamble);
          csv = r.csv();
        }
        default -> {
          ClusterCatchup.Result r = ClusterCatchup.run(plan, out);
          markdown = r.markdown(preamble);
          csv = r.csv();
        }
      }
    } catch (Exception e) {
      out.println("bench cluster: the " + plan.test().label + " run failed: " + e);
      e.printStackTrace(out);
      if (base != null) {
        out.println("bench cluster: the servers' directories and logs are kept in " + base);
      }
      return 1;
    }
    deleteTree(base);
    // The machine may be shared: what else ran is part of the result.
    markdown += String.format(Locale.ROOT, "* load average (1 min) at the start %.1f, at the end %.1f%n", loadAtStart,
        loadAverage());
    out.println();
    out.print(markdown.substring(preamble.length()));
    try {
      Files.createDirectories(plan.out());
      Files.writeString(plan.out().resolve("report.md"), markdown);
      Files.writeString(plan.out().resolve(plan.test().csv), csv);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write to " + plan.out(), e);
    }
    out.println();
    out.println("Wrote " + plan.out().resolve("report.md") + " and " + plan.out().resolve(plan.test().csv));
    return 0;
  }

  /** The settings of the run, printed first and kept at the top of the report. */
  static String preamble(Plan plan) {
    StringBuilder sb = new StringBuilder("# Bellows bench cluster: " + plan.test().label + "\n\n");
    sb.append(String.format(Locale.ROOT, "* %s, %d CPUs, Java %s; started %s%n", System.getProperty("os.name"),
        Runtime.getRuntime().availableProcessors(), Runtime.version(), Instant.now()));
    switch (plan.test()) {
      case IDLE -> sb.append(String.format(Locale.ROOT, "* 3 members; %d tables (one region, one Raft group each);"
          + " settle %d s before each sample; CPU sampled over %d s%n", plan.tables(), plan.settleSeconds(),
          plan.sampleNanos() / 1_000_000_000L));
      case EFFICIENCY -> sb.append(String.format(Locale.ROOT, "* a standalone server and 3 members, alternating, %d"
              + " round(s), fresh directories; per run %,d rows of 4 × 25-byte cells, %d writer threads, batches of %d"
              + " rows, YCSB's scrambled Zipf over %,d keys, seed %d; the table's default durability%n",
          plan.rounds(), plan.rows(), plan.writers(), plan.batch(), plan.keySpace(), plan.seed()));
      case CATCHUP -> sb.append(String.format(Locale.ROOT, "* 3 members; a follower stopped while the others take"
              + " rows until the leader's sorted files hold %,d bytes (%d writers, batches of %d, rows never written"
              + " before), then started again%n", plan.fillBytes(), plan.writers(), plan.batch()));
    }
    sb.append("* servers: ").append(plan.product()).append(", JVM flags ").append(String.join(" ", plan.jvmFlags()));
    if (plan.jfr() != null) {
      sb.append(", flight recordings in ").append(plan.jfr());
    }
    sb.append('\n');
    sb.append("* this JVM (the client): ").append(ManagementFactory.getRuntimeMXBean().getInputArguments()).append('\n');
    return sb.toString();
  }

  /** The 1-minute load average ({@code /proc/loadavg}), or -1 where there is none. */
  static double loadAverage() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
