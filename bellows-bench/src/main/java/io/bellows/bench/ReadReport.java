package io.bellows.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The report of {@code bench read}: one Markdown row per run (throughput, get latency, read
 * amplification in bytes and in pages, cache hit ratio, KV cache promotions and size, data blocks,
 * missing rows), the paper's targets as ratios of runs of the same suite, and a CSV of every figure
 * of every run. A run that failed shows '-'. Immutable.
 */
final class ReadReport {
  /** The workload the targets are taken on (the paper's Figures 9–11 use YCSB B over Zipf keys). */
  static final String TARGET_WORKLOAD = ReadWorkload.B_ZIPF.label;
  static final String BASELINE = "64KB/S";
  static final String CHALLENGER = "D(32)+KVC";

  private final List<String> configs;
  private final List<String> workloads;
  private final List<ReadResult> runs;

  ReadReport(List<String> configs, List<String> workloads, List<ReadResult> runs) {
    this.configs = List.copyOf(configs);
    this.workloads = List.copyOf(workloads);
    this.runs = List.copyOf(runs);
  }

  List<String> configs() {
    return configs;
  }

  List<String> workloads() {
    return workloads;
  }

  Optional<ReadResult> find(String workload, String config) {
    return runs.stream().filter(r -> r.workload().equals(workload) && r.config().equals(config)).findFirst();
  }

  double figure(String workload, String config, String name) {
    return find(workload, config).map(r -> r.get(name)).orElse(Double.NaN);
  }

  String markdown(String preamble) {
    StringBuilder sb = new StringBuilder(preamble);
    sb.append("\n## Runs\n\n");
    MarkdownTable t = new MarkdownTable("workload", "config", "ops/s", "get avg µs", "get p95 µs", "get p99 µs",
        "read amp (bytes)", "read amp (pages)", "hit ratio", "KVC promotions", "KVC MiB", "KVC limit MiB",
        "KVC grows / shrinks", "data blocks", "misses");
    for (String w : workloads) {
      for (String c : configs) {
        Optional<ReadResult> r = find(w, c);
        t.row(w, c, num(r, ReadResult.OPS_PER_SECOND, "%,.0f"), num(r, ReadResult.GET_AVG_MICROS, "%.0f"),
            num(r, ReadResult.GET_P95_MICROS, "%.0f"), num(r, ReadResult.GET_P99_MICROS, "%.0f"),
            num(r, ReadResult.READ_AMP_BYTES, "%.2f"), num(r, ReadResult.READ_AMP_PAGES, "%.2f")
                + (r.isPresent() && r.get().has(ReadResult.FILE_PAGES_ESTIMATED) ? "*" : ""),
            num(r, ReadResult.HIT_RATIO, "%.3f"), num(r, ReadResult.KV_PROMOTIONS, "%,.0f"),
            r.isPresent() && r.get().has(ReadResult.KV_BYTES)
                ? String.format(Locale.ROOT, "%.1f", r.get().get(ReadResult.KV_BYTES) / 1048576) : "-",
            r.isPresent() && r.get().has(ReadResult.KV_MAX_BYTES)
                ? String.format(Locale.ROOT, "%.1f", r.get().get(ReadResult.KV_MAX_BYTES) / 1048576) : "-",
            num(r, ReadResult.KV_GROWS, "%.0f") + " / " + num(r, ReadResult.KV_SHRINKS, "%.0f"),
            num(r, ReadResult.DATA_BLOCKS, "%,.0f"), num(r, ReadResult.MISSES, "%.0f"));
      }
    }
    sb.append(t.render());
    sb.append("\n\\* pages read estimated from reads and bytes read (the store does not count pages):"
        + " reads + (bytes − reads) / 4096.\n");
    sb.append("\n## Targets (").append(TARGET_WORKLOAD).append(")\n\n");
    MarkdownTable targets = new MarkdownTable("ratio", "measured", "target", "met");
    for (Target g : targets()) {
      targets.row(g.name(), ReadResult.fmt(g.value()), g.goal(), Double.isNaN(g.value()) ? "-" : g.met() ? "yes" : "no");
    }
    sb.append(targets.render());
    if (hasWindows()) {
      sb.append("\n## Read amplification (pages) per window of operations\n\n");
      List<String> header = new ArrayList<>(List.of("window"));
      List<ReadResult> windowed = runs.stream().filter(r -> r.has(ReadRunner.windowFigure(1, ReadResult.READ_AMP_PAGES)))
          .toList();
      windowed.forEach(r -> header.add(r.workload() + " " + r.config()));
      MarkdownTable perWindow = new MarkdownTable(header.toArray(new String[0]));
      for (int k = 1; k <= windows(); k++) {
        List<Object> row = new ArrayList<>(List.of(k));
        for (ReadResult r : windowed) {
          row.add(ReadResult.fmt(r.get(ReadRunner.windowFigure(k, ReadResult.READ_AMP_PAGES))));
        }
        perWindow.row(row.toArray());
      }
      sb.append(perWindow.render());
      sb.append("\nEvery window's figures (operations, seconds, read amplification in bytes and pages, hit ratio)"
          + " are in windows.csv.\n");
    }
    return sb.toString();
  }

  /** Whether any run reported figures per window ({@code --window}). */
  boolean hasWindows() {
    return windows() > 0;
  }

  /** The most windows any run reported. */
  int windows() {
    int most = 0;
    for (ReadResult r : runs) {
      while (r.has(ReadRunner.windowFigure(most + 1, ReadResult.OPS))) {
        most++;
      }
    }
    return most;
  }

  /** One line per run and window: the window's operations, seconds, read amplification and hit ratio. */
  String windowsCsv() {
    StringBuilder sb = new StringBuilder("workload,config,window,ops,seconds,readAmpPages,readAmpBytes,hitRatio\n");
    for (String w : workloads) {
      for (String c : configs) {
        Optional<ReadResult> r = find(w, c);
        for (int k = 1; r.isPresent() && r.get().has(ReadRunner.windowFigure(k, ReadResult.OPS)); k++) {
          sb.append(w).append(',').append(c).append(',').append(k);
          for (String n : List.of(ReadResult.OPS, ReadResult.SECONDS, ReadResult.READ_AMP_PAGES,
              ReadResult.READ_AMP_BYTES, ReadResult.HIT_RATIO)) {
            sb.append(',').append(cell(r.get().get(ReadRunner.windowFigure(k, n))));
          }
          sb.append('\n');
        }
      }
    }
    return sb.toString();
  }

  private static String cell(double v) {
    return Double.isNaN(v) ? "" : v == Math.rint(v) && Math.abs(v) < 1e15
        ? Long.toString((long) v) : String.format(Locale.ROOT, "%.6g", v);
  }

  /** A target of the paper as a ratio of two runs. */
  record Target(String name, double value, String goal, boolean atLeast, double bound) {
    boolean met() {
      return atLeast ? value >= bound : value <= bound;
    }
  }

  List<Target> targets() {
    String w = TARGET_WORKLOAD;
    List<Target> l = new ArrayList<>();
    l.add(new Target(CHALLENGER + " ÷ " + BASELINE + " throughput",
        figure(w, CHALLENGER, ReadResult.OPS_PER_SECOND) / figure(w, BASELINE, ReadResult.OPS_PER_SECOND),
        "≥ 1.3", true, 1.3));
    l.add(new Target(CHALLENGER + " ÷ " + BASELINE + " read amplification (pages)",
        figure(w, CHALLENGER, ReadResult.READ_AMP_PAGES) / figure(w, BASELINE, ReadResult.READ_AMP_PAGES),
        "≤ 0.5", false, 0.5));
    l.add(new Target(best(w, false) + " ÷ " + best(w, true) + " throughput (best Bellows ÷ best RocksDB)",
        figure(w, best(w, false), ReadResult.OPS_PER_SECOND) / figure(w, best(w, true), ReadResult.OPS_PER_SECOND),
        "≥ 1.0", true, 1.0));
    return l;
  }

  /** The configuration of one store with the highest throughput on {@code workload}, or "-". */
  String best(String workload, boolean rocksDb) {
    String best = "-";
    double top = Double.NEGATIVE_INFINITY;
    for (String c : configs) {
      double v = figure(workload, c, ReadResult.OPS_PER_SECOND);
      if (c.startsWith(ReadLayout.ROCKSDB.label) == rocksDb && !Double.isNaN(v) && v > top) {
        top = v;
        best = c;
      }
    }
    return best;
  }

  String csv() {
    Set<String> names = new LinkedHashSet<>();
    for (ReadResult r : runs) {
      r.figures().keySet().stream().filter(n -> !n.startsWith(ReadRunner.WINDOW_PREFIX)).forEach(names::add);
    }
    List<String> columns = new ArrayList<>(names);
    StringBuilder sb = new StringBuilder("workload,config,").append(String.join(",", columns)).append('\n');
    for (String w : workloads) {
      for (String c : configs) {
        Optional<ReadResult> r = find(w, c);
        if (r.isEmpty()) {
          continue;
        }
        sb.append(w).append(',').append(c);
        for (String n : columns) {
          sb.append(',').append(cell(r.get().get(n)));
        }
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  private static String num(Optional<ReadResult> r, String name, String format) {
    if (r.isEmpty() || !r.get().has(name) || Double.isInfinite(r.get().get(name))) {
      return "-";
    }
    return String.format(Locale.ROOT, format, r.get().get(name));
  }
}
