package io.bellows.bench;

import io.bellows.config.MemStorePolicy;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * Renders the runs of {@link EngineWrites} for one key distribution as a Markdown table: per policy
 * (and peer) the median over rounds with min–max of each figure, the ratio of median throughputs to
 * NONE and to the first peer, and latency percentiles over the put calls (and gets) of all rounds
 * together. For a peer, "blocked ms" is its whole stall time. Stateless.
 */
final class EngineReport {
  private EngineReport() {}

  static String render(List<String> labels, Map<String, List<EngineRunResult>> runs) {
    String peer = labels.stream().filter(l -> l.startsWith("rocksdb")).findFirst().orElse(null);
    MarkdownTable t = new MarkdownTable("policy", "rows/s", "cells/s", "× NONE",
        "× " + (peer == null ? "peer" : peer), "disk flushes", "compactions",
        "flush MB", "compaction MB", "(flush+compaction) / user bytes", "WAL MB", "WAL records", "WAL syncs", "blocked ms", "paced ms", "GCs", "GC ms",
        "put p50 µs", "put p99 µs", "put p99.9 µs", "gets/s", "get p50 µs", "get p99 µs", "get misses");
    double noneRows = reference(runs, MemStorePolicy.NONE.name());
    double peerRows = peer == null ? Double.NaN : reference(runs, peer);
    for (String p : labels) {
      List<EngineRunResult> rs = runs.get(p);
      if (rs == null || rs.isEmpty()) {
        continue;
      }
      Histogram put = new Histogram(3);
      Histogram get = new Histogram(3);
      long misses = 0;
      for (EngineRunResult r : rs) {
        put.add(r.putNanos());
        get.add(r.getNanosEach());
        misses += r.getMisses();
      }
      double mb = 1e6;
      t.row(p,
          spread(rs, EngineRunResult::rowsPerSecond, "%,.0f"),
          String.format("%,.0f", median(rs, EngineRunResult::cellsPerSecond)),
          Double.isNaN(noneRows) ? "-" : MarkdownTable.f2(median(rs, EngineRunResult::rowsPerSecond) / noneRows),
          Double.isNaN(peerRows) ? "-" : MarkdownTable.f2(median(rs, EngineRunResult::rowsPerSecond) / peerRows),
          spread(rs, r -> r.flushes(), "%.0f"),
          spread(rs, r -> r.compactions(), "%.0f"),
          spread(rs, r -> r.flushBytes() / mb, "%.0f"),
          spread(rs, r -> r.compactionBytes() / mb, "%.0f"),
          spread(rs, EngineRunResult::writeAmplification, "%.2f"),
          String.format("%.0f", median(rs, r -> r.walBytes() / mb)),
          spread(rs, r -> r.walRecords(), "%,.0f"),
          spread(rs, r -> r.walSyncs(), "%,.0f"),
          spread(rs, r -> r.blockedNanos() / 1e6, "%.0f"),
          spread(rs, r -> r.delayedNanos() / 1e6, "%.0f"),
          spread(rs, r -> r.gcCount(), "%.0f"),
          spread(rs, r -> r.gcMillis(), "%.0f"),
          MarkdownTable.f1(put.getValueAtPercentile(50) / 1e3),
          MarkdownTable.f1(put.getValueAtPercentile(99) / 1e3),
          MarkdownTable.f1(put.getValueAtPercentile(99.9) / 1e3),
          String.format("%,.0f", median(rs, EngineRunResult::getsPerSecond)),
          MarkdownTable.f1(get.getValueAtPercentile(50) / 1e3),
          MarkdownTable.f1(get.getValueAtPercentile(99) / 1e3),
          misses);
    }
    return t.render();
  }

  private static double reference(Map<String, List<EngineRunResult>> runs, String label) {
    List<EngineRunResult> rs = runs.get(label);
    return rs == null || rs.isEmpty() ? Double.NaN : median(rs, EngineRunResult::rowsPerSecond);
  }

  /** The median (the upper one of an even count) of a figure over runs. */
  static double median(List<EngineRunResult> runs, ToDoubleFunction<EngineRunResult> f) {
    double[] v = runs.stream().mapToDouble(f).sorted().toArray();
    return v[v.length / 2];
  }

  /** "median (min–max)", or just the median when all runs agree or there is one run. */
  static String spread(List<EngineRunResult> runs, ToDoubleFunction<EngineRunResult> f, String format) {
    return spread(runs.stream().mapToDouble(f).toArray(), format);
  }

  static String spread(double[] values, String format) {
    double[] v = values.clone();
    Arrays.sort(v);
    String med = String.format(format, v[v.length / 2]);
    String min = String.format(format, v[0]);
    String max = String.format(format, v[v.length - 1]);
    return min.equals(max) ? med : med + " (" + min + "–" + max + ")";
  }
}
