package io.bellows.bench;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.remote.RemoteEngine;
import io.bellows.remote.RemoteOptions;
import io.bellows.schema.TableDescriptor;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.HdrHistogram.Histogram;

/**
 * {@code bench cluster --test efficiency}: the paper's write workload (4 writers, batches of 100
 * rows of 4 × 25 B cells, YCSB's scrambled Zipf keys) through one client, against a standalone
 * {@code bellows server} and against a 3-member cluster, on fresh directories, alternating which
 * goes first, for several rounds. Three replicas on one machine do three times the work of one
 * server, so the figure is {@code 3 × cluster rows/s ÷ single rows/s} per round: 1.0 would be
 * replication for free. Target (docs/design/cluster.md, step 4): at least 0.6, with the p99 of a
 * write call beside the single server's.
 */
final class ClusterEfficiency {
  static final double TARGET = 0.6;
  static final String TABLE = "usertable";

  private ClusterEfficiency() {}

  /** One mode's run: rows written, the time of the second half of them and of all, each write call's latency. */
  record Run(int round, String mode, long rows, long secondHalfNanos, long nanos, long p50Micros, long p99Micros,
      long p999Micros, double load) {
    /** Rows per second past the warm-up (the second half of the rows). */
    double rate() {
      return rows / 2.0 * 1e9 / secondHalfNanos;
    }
  }

  record Result(List<Run> runs) {
    List<Run> of(String mode) {
      return runs.stream().filter(r -> r.mode().equals(mode)).toList();
    }

    int rounds() {
      return (int) runs.stream().mapToInt(Run::round).distinct().count();
    }

    /** Each round's {@code 3 × cluster ÷ single}, in round order. */
    double[] ratios() {
      return runs.stream().mapToInt(Run::round).distinct().sorted().mapToDouble(round -> {
        Run single = runs.stream().filter(r -> r.round() == round && r.mode().equals("single")).findFirst().orElseThrow();
        Run cluster = runs.stream().filter(r -> r.round() == round && r.mode().equals("cluster")).findFirst().orElseThrow();
        return 3 * cluster.rate() / single.rate();
      }).toArray();
    }

    double medianRatio() {
      return median(ratios());
    }

    boolean meets() {
      return medianRatio() >= TARGET;
    }

    String markdown(String preamble) {
      StringBuilder sb = new StringBuilder(preamble).append('\n');
      sb.append("## Replication efficiency on loopback\n\n");
      MarkdownTable t = new MarkdownTable("round", "mode", "rows", "rows/s (2nd half)", "rows/s (all)",
          "write p50 (ms)", "write p99 (ms)", "write p99.9 (ms)", "load after");
      for (Run r : runs) {
        t.row(r.round(), r.mode(), r.rows(), MarkdownTable.f1(r.rate()), MarkdownTable.f1(r.rows() * 1e9 / r.nanos()),
            MarkdownTable.f2(r.p50Micros() / 1e3), MarkdownTable.f2(r.p99Micros() / 1e3),
            MarkdownTable.f2(r.p999Micros() / 1e3), MarkdownTable.f1(r.load()));
      }
      sb.append(t.render()).append('\n');
      MarkdownTable m = new MarkdownTable("mode", "median rows/s", "range rows/s", "median p99 (ms)", "range p99 (ms)");
      for (String mode : List.of("single", "cluster")) {
        double[] rates = of(mode).stream().mapToDouble(Run::rate).toArray();
        double[] p99 = of(mode).stream().mapToDouble(r -> r.p99Micros() / 1e3).toArray();
        m.row(mode, MarkdownTable.f1(median(rates)), range(rates, 1), MarkdownTable.f2(median(p99)), range(p99, 2));
      }
      sb.append(m.render()).append('\n');
      double[] ratios = ratios();
      sb.append(String.format(Locale.ROOT, "* 3 × cluster ÷ single, per round: %s; median **%.2f**, range %s"
              + " (target ≥ %.1f): **%s**%n", Arrays.toString(Arrays.stream(ratios).mapToObj(r -> String.format(
              Locale.ROOT, "%.2f", r)).toArray()), medianRatio(), range(ratios, 2), TARGET, meets() ? "met" : "missed"));
      double p99Single = median(of("single").stream().mapToDouble(Run::p99Micros).toArray());
      double p99Cluster = median(of("cluster").stream().mapToDouble(Run::p99Micros).toArray());
      sb.append(String.format(Locale.ROOT, "* p99 of a write call: cluster %.2f ms, single %.2f ms (%.2f×)%n",
          p99Cluster / 1e3, p99Single / 1e3, p99Cluster / p99Single));
      return sb.toString();
    }

    String csv() {
      StringBuilder sb = new StringBuilder("round,mode,rows,second_half_s,all_s,rows_per_s,p50_us,p99_us,p999_us,"
          + "load_after\n");
      for (Run r : runs) {
        sb.append(String.format(Locale.ROOT, "%d,%s,%d,%.3f,%.3f,%.1f,%d,%d,%d,%.2f%n", r.round(), r.mode(), r.rows(),
            r.secondHalfNanos() / 1e9, r.nanos() / 1e9, r.rate(), r.p50Micros(), r.p99Micros(), r.p999Micros(),
            r.load()));
      }
      return sb.toString();
    }
  }

  static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return n == 0 ? Double.NaN : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  private static String range(double[] values, int decimals) {
    String f = "%." + decimals + "f–%." + decimals + "f";
    return String.format(Locale.ROOT, f, Arrays.stream(values).min().orElse(Double.NaN),
        Arrays.stream(values).max().orElse(Double.NaN));
  }

  /** The modes in the order round {@code round} (from 1) runs them: the first round single first, then alternating. */
  static List<String> order(int round) {
    return round % 2 == 1 ? List.of("single", "cluster") : List.of("cluster", "single");
  }

  static Result run(ClusterBench.Plan plan, PrintWriter out) throws Exception {
    List<Run> runs = new ArrayList<>();
    for (int round = 1; round <= plan.rounds(); round++) {
      for (String mode : order(round)) {
        Path dir = plan.dir().resolve("efficiency-" + round + "-" + mode);
        try (LocalServers servers = mode.equals("single")
            ? LocalServers.single(plan.product(), plan.jvmFlags(), plan.jfr(), dir)
            : LocalServers.cluster(plan.product(), plan.jvmFlags(), plan.jfr(), dir, 3)) {
          servers.startAll();
          Bellows db = mode.equals("single")
              ? RemoteEngine.connect(servers.clientAddresses().get(0), RemoteOptions.defaults())
              : RemoteEngine.connect(servers.clientAddresses(), RemoteOptions.defaults());
          try (db) {
            db.createTable(TableDescriptor.builder(TABLE).family("f").build());
            Run r = write(round, mode, db.getTable(TABLE), plan, out);
            runs.add(r);
            out.printf(Locale.ROOT, "efficiency: round %d %s: %,.0f rows/s, write p99 %.2f ms%n", round, mode, r.rate(),
                r.p99Micros() / 1e3);
          }
        }
        ClusterBench.deleteTree(dir);
      }
    }
    return new Result(runs);
  }

  /** The paper's writers against {@code table}: {@code plan.rows()} rows in all. */
  static Run write(int round, String mode, Table table, ClusterBench.Plan plan, PrintWriter out) {
    int writers = plan.writers();
    List<BenchClients.RowWriter> tasks = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      long rows = plan.rows() / writers + (i < plan.rows() % writers ? 1 : 0);
      tasks.add(new BenchClients.RowWriter(KeyDistribution.SCRAMBLED_ZIPF.chooser(plan.keySpace(), plan.seed() + i),
          new PaperPuts(plan.seed() + i), rows, 1, plan.batch()) {
        @Override
        void write(List<Put> batch) {
          table.put(batch);
        }
      });
    }
    return timed(round, mode, tasks, plan.rows(), out);
  }

  /** Runs the writers to their end, with a progress line every 10 s; their latencies merged. */
  static Run timed(int round, String mode, List<BenchClients.RowWriter> tasks, long rows, PrintWriter out) {
    ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
    java.util.concurrent.ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    BenchClients.ROWS_WRITTEN.reset(); // the halfway mark counts from this run's first row
    long start = System.nanoTime();
    ticker.scheduleAtFixedRate(() -> out.printf(Locale.ROOT, "    %s round %d: %,d / %,d rows (%.0f s)%n", mode, round,
        BenchClients.ROWS_WRITTEN.sum(), rows, (System.nanoTime() - start) / 1e9), 10, 10,
        java.util.concurrent.TimeUnit.SECONDS);
    BenchClients.expect(rows);
    try {
      BenchClients.runAll(pool, tasks);
    } finally {
      ticker.shutdownNow();
      pool.shutdown();
    }
    long nanos = System.nanoTime() - start;
    Histogram h = new Histogram(3);
    tasks.forEach(t -> h.add(t.latency));
    long half = BenchClients.secondHalfNanos();
    return new Run(round, mode, rows, half == PaperResult.NA ? nanos / 2 : half, nanos, h.getValueAtPercentile(50) / 1000,
        h.getValueAtPercentile(99) / 1000, h.getValueAtPercentile(99.9) / 1000, ClusterBench.loadAverage());
  }
}
