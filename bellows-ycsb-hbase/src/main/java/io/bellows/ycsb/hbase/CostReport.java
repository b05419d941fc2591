package io.bellows.ycsb.hbase;

import java.util.ArrayList;
import java.util.DoubleSummaryStatistics;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * Renders {@link AdapterCost}'s runs: a markdown report (throughput per workload and phase for both
 * bindings with the HBase-API ÷ native ratio, YCSB's and the steady one, then per-operation
 * latencies) and a CSV line per run and operation. Figures of several rounds are their mean; the
 * ratio of each round's pair is listed too.
 */
final class CostReport {
  /**
   * One YCSB phase of one binding in one round; {@code position} 0 ran first in its pair, 1 second;
   * {@code loadAverage} the machine's one-minute load average when it ended (negative if unknown): a
   * figure well above the phase's own threads says something else ran too.
   */
  record Run(int round, String workload, Binding binding, String phase, int position, YcsbOutput output,
      double loadAverage) {}

  /** YCSB's own throughput ({@code [OVERALL]}: the store's opening and closing included). */
  static final ToDoubleFunction<YcsbOutput> YCSB = YcsbOutput::throughput;
  /** The throughput between status lines, once the store is open. */
  static final ToDoubleFunction<YcsbOutput> STEADY = YcsbOutput::steadyThroughput;

  private final List<Run> runs;

  CostReport(List<Run> runs) {
    this.runs = List.copyOf(runs);
  }

  /** Mean of a throughput over the rounds of {@code binding} in that workload and phase (NaN if none ran). */
  double throughput(String workload, String phase, Binding binding, ToDoubleFunction<YcsbOutput> measure) {
    return mean(select(workload, phase, binding), r -> measure.applyAsDouble(r.output()));
  }

  /** HBase-API ÷ native of a throughput of a workload's phase (YCSB's or the steady one). */
  double ratio(String workload, String phase, ToDoubleFunction<YcsbOutput> measure) {
    return throughput(workload, phase, Binding.HBASE_API, measure) / throughput(workload, phase, Binding.NATIVE, measure);
  }

  /** The geometric mean of the workloads' ratios for a phase. */
  double ratio(String phase, ToDoubleFunction<YcsbOutput> measure) {
    List<String> ws = workloads();
    double logSum = 0;
    for (String w : ws) {
      logSum += Math.log(ratio(w, phase, measure));
    }
    return Math.exp(logSum / ws.size());
  }

  String markdown() {
    StringBuilder sb = new StringBuilder();
    Table t = new Table("workload", "phase", "native ops/s", "HBase API ops/s", "HBase API ÷ native", "÷ per round",
        "native steady ops/s", "HBase API steady ops/s", "steady ÷", "native GC ms", "HBase API GC ms");
    for (String w : workloads()) {
      for (String phase : List.of("load", "run")) {
        if (select(w, phase, Binding.NATIVE).isEmpty()) {
          continue;
        }
        t.row("`" + w + "`", phase, f0(throughput(w, phase, Binding.NATIVE, YCSB)),
            f0(throughput(w, phase, Binding.HBASE_API, YCSB)), "**" + times(ratio(w, phase, YCSB)) + "**",
            perRound(w, phase), f0(throughput(w, phase, Binding.NATIVE, STEADY)),
            f0(throughput(w, phase, Binding.HBASE_API, STEADY)), times(ratio(w, phase, STEADY)),
            f0(throughput(w, phase, Binding.NATIVE, o -> o.gcMillis())),
            f0(throughput(w, phase, Binding.HBASE_API, o -> o.gcMillis())));
      }
    }
    sb.append(t.render()).append('\n');
    DoubleSummaryStatistics load = runs.stream().mapToDouble(Run::loadAverage).filter(l -> l >= 0).summaryStatistics();
    if (load.getCount() > 0) {
      sb.append(String.format(Locale.ROOT, "One-minute load average at the end of the phases: %.1f to %.1f (%d CPUs).%n%n",
          load.getMin(), load.getMax(), Runtime.getRuntime().availableProcessors()));
    }
    sb.append("HBase API ÷ native throughput (geometric mean over the workloads): load **" + times(ratio("load", YCSB))
        + "**, run **" + times(ratio("run", YCSB)) + "** (steady: load " + times(ratio("load", STEADY)) + ", run "
        + times(ratio("run", STEADY)) + ").\n\n");

    Table lat = new Table("workload", "phase", "operation", "native avg µs", "native p95 µs", "native p99 µs",
        "HBase API avg µs", "HBase API p95 µs", "HBase API p99 µs", "avg ÷ native");
    for (String w : workloads()) {
      for (String phase : List.of("load", "run")) {
        for (String op : operations(w, phase)) {
          double nAvg = latency(w, phase, op, Binding.NATIVE, YcsbOutput.Operation::averageMicros);
          double hAvg = latency(w, phase, op, Binding.HBASE_API, YcsbOutput.Operation::averageMicros);
          lat.row("`" + w + "`", phase, op, f1(nAvg),
              f0(latency(w, phase, op, Binding.NATIVE, YcsbOutput.Operation::p95Micros)),
              f0(latency(w, phase, op, Binding.NATIVE, YcsbOutput.Operation::p99Micros)), f1(hAvg),
              f0(latency(w, phase, op, Binding.HBASE_API, YcsbOutput.Operation::p95Micros)),
              f0(latency(w, phase, op, Binding.HBASE_API, YcsbOutput.Operation::p99Micros)),
              times(hAvg / nAvg));
        }
      }
    }
    sb.append(lat.render());
    return sb.toString();
  }

  /** One line per run and operation kind. */
  String csv() {
    StringBuilder sb = new StringBuilder("round,workload,binding,phase,position,throughput,steadyThroughput,runtimeMs,"
        + "gcMs,loadAverage,operation,operations,averageUs,p95Us,p99Us\n");
    for (Run r : runs) {
      YcsbOutput o = r.output();
      o.operations().forEach((name, op) -> sb.append(String.format(Locale.ROOT, "%d,%s,%s,%s,%d,%.1f,%.1f,%d,%d,%.2f,%s,%d,%.2f,%.0f,%.0f%n",
          r.round(), r.workload(), r.binding().label, r.phase(), r.position(), o.throughput(), o.steadyThroughput(),
          o.runtimeMillis(), o.gcMillis(), r.loadAverage(), name, op.count(), op.averageMicros(), op.p95Micros(), op.p99Micros())));
    }
    return sb.toString();
  }

  private List<String> workloads() {
    return runs.stream().map(Run::workload).distinct().toList();
  }

  /** The measured operation kinds of a phase (YCSB's CLEANUP and the -FAILED kinds left out). */
  private Set<String> operations(String workload, String phase) {
    Set<String> out = new LinkedHashSet<>();
    for (Run r : select(workload, phase, Binding.NATIVE)) {
      r.output().operations().keySet().stream().filter(n -> !n.equals("CLEANUP") && !n.endsWith("-FAILED"))
          .forEach(out::add);
    }
    return out;
  }

  private double latency(String workload, String phase, String op, Binding b,
      ToDoubleFunction<YcsbOutput.Operation> measure) {
    List<Run> rs = select(workload, phase, b).stream().filter(r -> r.output().operations().containsKey(op)).toList();
    return mean(rs, r -> measure.applyAsDouble(r.output().operations().get(op)));
  }

  /** HBase-API ÷ native of YCSB's throughput in each round (the two ran back to back). */
  private String perRound(String workload, String phase) {
    List<String> out = new ArrayList<>();
    for (int round : select(workload, phase, Binding.NATIVE).stream().mapToInt(Run::round).distinct().toArray()) {
      double n = mean(select(workload, phase, Binding.NATIVE).stream().filter(r -> r.round() == round).toList(),
          r -> r.output().throughput());
      double h = mean(select(workload, phase, Binding.HBASE_API).stream().filter(r -> r.round() == round).toList(),
          r -> r.output().throughput());
      out.add(String.format(Locale.ROOT, "%.2f", h / n));
    }
    return String.join(" / ", out);
  }

  private List<Run> select(String workload, String phase, Binding b) {
    return runs.stream().filter(r -> r.workload().equals(workload) && r.phase().equals(phase) && r.binding() == b)
        .toList();
  }

  private static double mean(List<Run> rs, ToDoubleFunction<Run> f) {
    return rs.stream().mapToDouble(f).average().orElse(Double.NaN);
  }

  private static String f0(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String times(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.2f×", v);
  }

  private static String f1(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%,.1f", v);
  }

  /** A GitHub-flavoured markdown table. */
  private static final class Table {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    Table(String... header) {
      this.header = List.of(header);
    }

    void row(String... cells) {
      rows.add(List.of(cells));
    }

    String render() {
      StringBuilder sb = new StringBuilder();
      line(sb, header);
      sb.append("|---".repeat(header.size())).append("|\n");
      rows.forEach(r -> line(sb, r));
      return sb.toString();
    }

    private static void line(StringBuilder sb, List<String> cells) {
      sb.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }
  }
}
