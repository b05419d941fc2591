package io.bellows.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The paper suite's results as Markdown tables shaped like the paper's — Table 1 (write throughput,
 * absolute and relative to NONE) and Table 2 (flushes, compactions, bytes written) — plus the
 * resources each run used, and a CSV of every run. Every table has a column per RocksDB setup that
 * was run giving the Bellows/RocksDB ratio. Missing references show "-", figures a store does not
 * expose "n/a". Stateless apart from the runs it renders.
 */
final class PaperReport {
  private final List<String> configs;
  private final List<String> keys;
  private final List<PaperResult> runs;
  private final List<String> peers;
  /** "get" or "scan" for the mixed workloads (a latency table per key distribution), null for write. */
  private final String latencyOp;

  PaperReport(List<String> configs, List<String> keys, List<PaperResult> runs) {
    this(configs, keys, runs, null);
  }

  private PaperReport(List<String> configs, List<String> keys, List<PaperResult> runs, String latencyOp) {
    this.configs = configs;
    this.keys = keys;
    this.runs = runs;
    this.latencyOp = latencyOp;
    this.peers = configs.stream().filter(c -> c.startsWith("rocksdb")).toList();
  }

  /** "get" or "scan" for a report of read latencies, null for the write workload. */
  String latencyOp() {
    return latencyOp;
  }

  /** The same report with a table of read latencies ({@code op}: "get" or "scan") per key distribution. */
  PaperReport withLatency(String op) {
    return new PaperReport(configs, keys, runs, op);
  }

  /**
   * Read latency percentiles of the measured phase, each also × NONE (the paper's Figures 9 and 10
   * show these ratios) and × each RocksDB setup.
   */
  String latencyTable(String key) {
    String op = latencyOp == null ? "read" : latencyOp;
    List<String> header = new ArrayList<>(List.of("configuration", op + "s", op + "s/s", "empty", "rows put/s"));
    String[] names = {"p50", "p75", "p90", "p95", "p99"};
    List<ToDoubleFunction<PaperResult>> pcts = List.of(PaperResult::readP50, PaperResult::readP75,
        PaperResult::readP90, PaperResult::readP95, PaperResult::readP99);
    for (String n : names) {
      header.add(n + " µs");
    }
    for (String n : names) {
      header.add(n + " × NONE");
    }
    peers.forEach(p -> header.add("p99 × " + p));
    header.add("reader CPU µs per " + op);
    header.add("reader cores");
    MarkdownTable t = new MarkdownTable(header.toArray(new String[0]));
    for (String c : configs) {
      Optional<PaperResult> o = find(key, c);
      if (o.isEmpty()) {
        continue;
      }
      PaperResult r = o.get();
      List<Object> row = new ArrayList<>(List.of(c, String.format(Locale.ROOT, "%,d", r.readOps()),
          String.format(Locale.ROOT, "%,.0f", r.readsPerSecond()), r.readMisses(),
          String.format(Locale.ROOT, "%,.0f", r.rowsPerSecond())));
      for (ToDoubleFunction<PaperResult> f : pcts) {
        row.add(String.format(Locale.ROOT, "%.1f", f.applyAsDouble(r) / 1e3));
      }
      for (ToDoubleFunction<PaperResult> f : pcts) {
        row.add(ratio(key, c, "NONE", f));
      }
      peers.forEach(p -> row.add(ratio(key, c, p, PaperResult::readP99)));
      row.add(r.readCpuNanos() < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", r.readCpuMicrosPerOp()));
      row.add(r.readCpuNanos() < 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", r.readCores()));
      t.row(row.toArray());
    }
    return t.render();
  }

  /**
   * The run of a configuration and key distribution that the tables show: with several rounds, the
   * one of median throughput (the lower middle one of an even count), so that all its figures come
   * from one real run.
   */
  Optional<PaperResult> find(String key, String config) {
    List<PaperResult> all = new ArrayList<>(roundsOf(key, config));
    if (all.isEmpty()) {
      return Optional.empty();
    }
    all.sort(Comparator.comparingDouble(PaperResult::rowsPerSecond));
    return Optional.of(all.get((all.size() - 1) / 2));
  }

  /** The runs of a configuration and key distribution in the order they ran: one per round. */
  List<PaperResult> roundsOf(String key, String config) {
    return runs.stream().filter(r -> r.keys().equals(key) && r.config().equals(config)).toList();
  }

  /** Whether any configuration ran more than once ({@code --rounds}). */
  boolean hasRounds() {
    for (String k : keys) {
      for (String c : configs) {
        if (roundsOf(k, c).size() > 1) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Every round's rows/s for one key distribution, and each round's ratio to each RocksDB setup of
   * the same round: runs of one round ran close in time, so their ratio is steadier than the ratio
   * of medians on a machine whose speed drifts. Then the median of those ratios.
   */
  String roundsTable(String key) {
    int rounds = 0;
    for (String c : configs) {
      rounds = Math.max(rounds, roundsOf(key, c).size());
    }
    List<String> header = new ArrayList<>(List.of("configuration"));
    for (int i = 1; i <= rounds; i++) {
      header.add("round " + i + " rows/s");
    }
    for (String p : peers) {
      for (int i = 1; i <= rounds; i++) {
        header.add("round " + i + " × " + p);
      }
      header.add("median × " + p);
    }
    MarkdownTable t = new MarkdownTable(header.toArray(new String[0]));
    for (String c : configs) {
      List<PaperResult> mine = roundsOf(key, c);
      List<Object> row = new ArrayList<>(List.of(c));
      for (int i = 0; i < rounds; i++) {
        row.add(i < mine.size() ? String.format(Locale.ROOT, "%,.0f", mine.get(i).rowsPerSecond()) : "-");
      }
      for (String p : peers) {
        List<PaperResult> theirs = roundsOf(key, p);
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
          if (i < mine.size() && i < theirs.size()) {
            double r = mine.get(i).rowsPerSecond() / theirs.get(i).rowsPerSecond();
            ratios.add(r);
            row.add(String.format(Locale.ROOT, "%.2f", r));
          } else {
            row.add("-");
          }
        }
        Collections.sort(ratios);
        row.add(ratios.isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f", median(ratios)));
      }
      t.row(row.toArray());
    }
    return t.render();
  }

  private static double median(List<Double> sorted) {
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** Table 1: rows/s per configuration and key distribution, × NONE and × each RocksDB setup. */
  String throughputTable() {
    return rateTable(PaperResult::rowsPerSecond);
  }

  /** Whether any run timed the second half of its rows. */
  boolean hasSecondHalves() {
    return runs.stream().anyMatch(r -> r.secondHalfNanos() > 0);
  }

  /**
   * Table 1 over the second half of each run's rows: past the JIT's warm-up, which a cold Bellows
   * JVM spends its first 10-30 s in on two cores, and closer to the paper's runs of hours.
   */
  String secondHalfTable() {
    return rateTable(PaperResult::secondHalfRowsPerSecond);
  }

  /** Rows/s by {@code rate} (not positive: not measured, shown "-"), × NONE and × each RocksDB setup. */
  private String rateTable(ToDoubleFunction<PaperResult> rate) {
    List<String> header = new ArrayList<>(List.of("configuration"));
    for (String k : keys) {
      header.add(k + " rows/s");
      header.add(k + " × NONE");
      peers.forEach(p -> header.add(k + " × " + p));
    }
    MarkdownTable t = new MarkdownTable(header.toArray(new String[0]));
    for (String c : configs) {
      List<Object> row = new ArrayList<>(List.of(c));
      for (String k : keys) {
        Optional<PaperResult> r = find(k, c).filter(x -> rate.applyAsDouble(x) > 0);
        row.add(r.map(x -> String.format(Locale.ROOT, "%,.0f", rate.applyAsDouble(x))).orElse("-"));
        row.add(r.isEmpty() ? "-" : ratio(k, c, "NONE", rate));
        peers.forEach(p -> row.add(r.isEmpty() ? "-" : ratio(k, c, p, rate)));
      }
      t.row(row.toArray());
    }
    return t.render();
  }

  /** Table 2 for one key distribution: disk flushes, compactions and the bytes they wrote; the WAL apart. */
  String ioTable(String key) {
    List<String> header = new ArrayList<>(List.of("configuration", "flushes", "compactions", "cells flushed (M)",
        "cells dropped in memory (M)", "flush MB", "compaction MB", "flush+compaction MB", "× NONE",
        "(flush+compaction) / user bytes", "WAL MB", "WAL files rolled", "WAL files live at the end"));
    peers.forEach(p -> header.add("bytes × " + p));
    MarkdownTable t = new MarkdownTable(header.toArray(new String[0]));
    ToDoubleFunction<PaperResult> written = r -> r.flushBytes() + r.compactionBytes();
    for (String c : configs) {
      Optional<PaperResult> o = find(key, c);
      if (o.isEmpty()) {
        continue;
      }
      PaperResult r = o.get();
      List<Object> row = new ArrayList<>(List.of(c, r.flushes(), r.compactions(), millions(r.flushedCells()),
          millions(r.memoryEliminatedCells()), mb(r.flushBytes()),
          mb(r.compactionBytes()), mb(r.flushBytes() + r.compactionBytes()), ratio(key, c, "NONE", written),
          String.format(Locale.ROOT, "%.2f", r.writeAmplification()), mb(r.walBytes()), count(r.walFilesRolled()),
          count(r.walFilesLive())));
      peers.forEach(p -> row.add(ratio(key, c, p, written)));
      t.row(row.toArray());
    }
    return t.render();
  }

  /** A count, or "n/a" for a figure the store does not expose. */
  private static String count(long n) {
    return n == PaperResult.NA ? "n/a" : Long.toString(n);
  }

  /** A count in millions, or "n/a" for a figure the store does not expose. */
  private static String millions(long n) {
    return n == PaperResult.NA ? "n/a" : String.format(Locale.ROOT, "%.2f", n / 1e6);
  }

  /** Whether any run timed its write calls. */
  boolean hasWriteLatency() {
    return runs.stream().anyMatch(r -> r.writeP99() >= 0);
  }

  /**
   * The latency of the writers' calls (a batch of rows each), and its tail × each RocksDB setup: the
   * writers' side of a mixed run, and the tail that flushes, stalls and GC pauses show in.
   */
  String writeLatencyTable(String key) {
    List<String> header = new ArrayList<>(List.of("configuration", "rows put/s", "p50 ms", "p99 ms", "p99.9 ms",
        "max ms"));
    peers.forEach(p -> {
      header.add("p99 × " + p);
      header.add("p99.9 × " + p);
    });
    MarkdownTable t = new MarkdownTable(header.toArray(new String[0]));
    for (String c : configs) {
      Optional<PaperResult> o = find(key, c);
      if (o.isEmpty() || o.get().writeP99() < 0) {
        continue;
      }
      PaperResult r = o.get();
      List<Object> row = new ArrayList<>(List.of(c, String.format(Locale.ROOT, "%,.0f", r.rowsPerSecond()),
          millis(r.writeP50()), millis(r.writeP99()), millis(r.writeP999()), millis(r.writeMax())));
      peers.forEach(p -> {
        row.add(ratio(key, c, p, PaperResult::writeP99));
        row.add(ratio(key, c, p, PaperResult::writeP999));
      });
      t.row(row.toArray());
    }
    return t.render();
  }

  private static String millis(long nanos) {
    return String.format(Locale.ROOT, "%.2f", nanos / 1e6);
  }

  /** What each run cost the process: GC, CPU, peak heap, stalls. */
  String resourceTable(String key) {
    MarkdownTable t = new MarkdownTable("configuration", "write s", "GCs", "GC ms", "GC ms / min", "CPU s",
        "CPU ms / 1k rows", "peak heap MB", "stall ms", "files");
    for (String c : configs) {
      Optional<PaperResult> o = find(key, c);
      if (o.isEmpty()) {
        continue;
      }
      PaperResult r = o.get();
      t.row(c, String.format(Locale.ROOT, "%.1f", r.writeSeconds()), r.gcCount(), r.gcMillis(),
          String.format(Locale.ROOT, "%.0f", r.gcMillisPerMinute()),
          r.cpuMillis() == PaperResult.NA ? "n/a" : String.format(Locale.ROOT, "%.1f", r.cpuMillis() / 1e3),
          // For the mixed workloads CPU time covers the load as well: per row of the measured phase it means nothing.
          r.cpuMillis() == PaperResult.NA || !r.workload().equals(PaperWorkload.WRITE.label) ? "n/a"
              : String.format(Locale.ROOT, "%.2f", r.cpuMillis() * 1e3 / r.rows()),
          r.peakHeapBytes() >> 20, r.stallMillis() == PaperResult.NA ? "n/a" : r.stallMillis(), r.storeFiles());
    }
    return t.render();
  }

  /** The whole report: Table 1, then Table 2 and the resources per key distribution. */
  String markdown(String preamble) {
    StringBuilder sb = new StringBuilder(preamble);
    sb.append("\n## Table 1: write throughput (rows/s)\n\n").append(throughputTable());
    if (hasSecondHalves()) {
      sb.append("\n## Table 1, second half: rows/s from the moment half the rows were written\n\n")
          .append(secondHalfTable());
    }
    if (hasRounds()) {
      sb.append("\nEvery table shows, for each configuration, its run of median throughput.\n");
      for (String k : keys) {
        sb.append("\n## Rounds — ").append(k).append(" keys\n\n").append(roundsTable(k));
      }
    }
    for (String k : keys) {
      sb.append("\n## Table 2: flushes, compactions and bytes written — ").append(k).append(" keys\n\n")
          .append(ioTable(k));
    }
    if (latencyOp != null) {
      for (String k : keys) {
        sb.append("\n## ").append(latencyOp.substring(0, 1).toUpperCase(Locale.ROOT)).append(latencyOp.substring(1))
            .append(" latency — ").append(k).append(" keys\n\n").append(latencyTable(k));
      }
    }
    if (hasWriteLatency()) {
      for (String k : keys) {
        sb.append("\n## Write-call latency — ").append(k).append(" keys\n\n").append(writeLatencyTable(k));
      }
    }
    for (String k : keys) {
      sb.append("\n## Resources — ").append(k).append(" keys\n\n").append(resourceTable(k));
    }
    return sb.toString();
  }

  /**
   * One line per run, the columns of {@link PaperResult#fields} plus rows/s, write amplification and
   * the round (1 unless {@code --rounds}).
   */
  String csv() {
    StringBuilder sb = new StringBuilder();
    if (runs.isEmpty()) {
      return sb.toString();
    }
    sb.append(String.join(",", runs.get(0).fields().keySet())).append(",rowsPerSecond,writeAmplification,round\n");
    Map<String, Integer> rounds = new HashMap<>();
    for (PaperResult r : runs) {
      List<String> cells = new ArrayList<>();
      for (Map.Entry<String, Object> e : r.fields().entrySet()) {
        cells.add(String.valueOf(e.getValue()));
      }
      cells.add(String.format(Locale.ROOT, "%.1f", r.rowsPerSecond()));
      cells.add(String.format(Locale.ROOT, "%.4f", r.writeAmplification()));
      cells.add(Integer.toString(rounds.merge(r.keys() + '\0' + r.config(), 1, Integer::sum)));
      sb.append(String.join(",", cells)).append('\n');
    }
    return sb.toString();
  }

  private String ratio(String key, String config, String reference, ToDoubleFunction<PaperResult> f) {
    Optional<PaperResult> r = find(key, config);
    Optional<PaperResult> ref = find(key, reference);
    if (r.isEmpty() || ref.isEmpty() || f.applyAsDouble(ref.get()) <= 0) {
      return "-";
    }
    return String.format(Locale.ROOT, "%.2f", f.applyAsDouble(r.get()) / f.applyAsDouble(ref.get()));
  }

  private static String mb(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / 1e6);
  }
}
