package io.bellows.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

/**
 * PNG charts of the paper suite, drawn with XChart (headless): write throughput per configuration
 * and key distribution (the paper's Figure 5, absolute), per key distribution GC time per minute of
 * writing against throughput on log-log axes, one point per run (the paper's Figure 7), and for the
 * read-write and scan-write workloads the read latency percentiles per configuration (the
 * absolute values behind the paper's Figures 9 and 10, on a log axis), and per key distribution
 * the megabytes flushes and compactions wrote per configuration, stacked (the paper's Figure 6).
 * A run without any GC time cannot sit on a log axis and is left out of the second chart; if no
 * run has any, the axes are linear. Stateless.
 */
final class PaperCharts {
  static final String THROUGHPUT = "throughput.png";

  private PaperCharts() {}

  static String gcFileName(String key) {
    return "gc-vs-throughput-" + key + ".png";
  }

  static String bytesFileName(String key) {
    return "bytes-written-" + key + ".png";
  }

  static String latencyFileName(String key) {
    return "latency-" + key + ".png";
  }

  /** Writes every chart into {@code dir} and returns the files written. */
  static List<Path> write(Path dir, PaperReport report, List<String> configs, List<String> keys) {
    System.setProperty("java.awt.headless", "true");
    List<Path> out = new ArrayList<>();
    out.add(save(throughput(report, configs, keys), dir.resolve(THROUGHPUT)));
    for (String k : keys) {
      out.add(save(gcVersusThroughput(report, configs, k), dir.resolve(gcFileName(k))));
      out.add(save(bytesWritten(report, configs, k), dir.resolve(bytesFileName(k))));
    }
    if (report.latencyOp() != null) {
      for (String k : keys) {
        CategoryChart chart = latency(report, configs, k);
        if (!chart.getSeriesMap().isEmpty()) { // every run failed: nothing to draw
          out.add(save(chart, dir.resolve(latencyFileName(k))));
        }
      }
    }
    return out;
  }

  /**
   * Read latency percentiles (µs, log axis) of each configuration's run that the tables show; a
   * run without latencies (failed, or none measured) is left out.
   */
  static CategoryChart latency(PaperReport report, List<String> configs, String key) {
    String op = report.latencyOp();
    CategoryChart chart = new CategoryChartBuilder().width(1000).height(560)
        .title(op.substring(0, 1).toUpperCase(java.util.Locale.ROOT) + op.substring(1) + " latency, " + key
            + " keys").xAxisTitle("percentile").yAxisTitle("µs").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setYAxisLogarithmic(true);
    List<String> x = List.of("p50", "p75", "p90", "p95", "p99");
    List<Double> all = new ArrayList<>();
    for (String c : configs) {
      Optional<PaperResult> o = report.find(key, c);
      if (o.isEmpty() || o.get().readP50() <= 0) {
        continue;
      }
      PaperResult r = o.get();
      List<Double> y = List.of(r.readP50() / 1e3, r.readP75() / 1e3, r.readP90() / 1e3, r.readP95() / 1e3,
          r.readP99() / 1e3);
      chart.addSeries(c, x, y);
      all.addAll(y);
    }
    // Bars start from the axis minimum, which a log axis must keep above zero: whole decades, as above.
    double[] values = all.isEmpty() ? new double[] {1} : all.stream().mapToDouble(Double::doubleValue).toArray();
    chart.getStyler().setYAxisMin(decadeBelow(values)).setYAxisMax(decadeAbove(values));
    return chart;
  }

  static CategoryChart throughput(PaperReport report, List<String> configs, List<String> keys) {
    CategoryChart chart = new CategoryChartBuilder().width(1000).height(560)
        .title("Write throughput per configuration").xAxisTitle("configuration").yAxisTitle("rows/s").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
    chart.getStyler().setXAxisLabelRotation(30);
    chart.getStyler().setYAxisDecimalPattern("#,###");
    for (String k : keys) {
      List<String> x = new ArrayList<>();
      List<Number> y = new ArrayList<>();
      for (String c : configs) {
        Optional<PaperResult> r = report.find(k, c);
        x.add(c);
        y.add(r.map(PaperResult::rowsPerSecond).orElse(0.0));
      }
      chart.addSeries(k + " keys", x, y);
    }
    return chart;
  }

  /** Megabytes written by flushes and by compactions per configuration (median run), stacked. */
  static CategoryChart bytesWritten(PaperReport report, List<String> configs, String key) {
    CategoryChart chart = new CategoryChartBuilder().width(1000).height(560)
        .title("Bytes written by flushes and compactions, " + key + " keys").xAxisTitle("configuration")
        .yAxisTitle("MB").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
    chart.getStyler().setXAxisLabelRotation(30);
    chart.getStyler().setYAxisDecimalPattern("#,###");
    chart.getStyler().setStacked(true);
    List<Number> flush = new ArrayList<>();
    List<Number> compaction = new ArrayList<>();
    for (String c : configs) {
      Optional<PaperResult> r = report.find(key, c);
      flush.add(r.map(x -> x.flushBytes() / 1e6).orElse(0.0));
      compaction.add(r.map(x -> x.compactionBytes() / 1e6).orElse(0.0));
    }
    chart.addSeries("flushes", configs, flush);
    chart.addSeries("compactions", configs, compaction);
    return chart;
  }

  static XYChart gcVersusThroughput(PaperReport report, List<String> configs, String key) {
    XYChart chart = new XYChartBuilder().width(800).height(600)
        .title("GC time vs write throughput, " + key + " keys (one point per run)")
        .xAxisTitle("rows/s").yAxisTitle("GC ms per minute of writing").build();
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    chart.getStyler().setMarkerSize(10);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    List<PaperResult> points = new ArrayList<>();
    for (String c : configs) {
      points.addAll(report.roundsOf(key, c)); // every round's run: a point per run, as the paper's
    }
    boolean logLog = points.stream().anyMatch(r -> r.gcMillis() > 0);
    chart.getStyler().setXAxisLogarithmic(logLog);
    chart.getStyler().setYAxisLogarithmic(logLog);
    List<PaperResult> shown = points.stream().filter(r -> !logLog || r.gcMillis() > 0).toList();
    for (String c : configs) {
      List<PaperResult> mine = shown.stream().filter(r -> r.config().equals(c)).toList();
      if (!mine.isEmpty()) {
        chart.addSeries(c, mine.stream().mapToDouble(PaperResult::rowsPerSecond).toArray(),
            mine.stream().mapToDouble(PaperResult::gcMillisPerMinute).toArray());
      }
    }
    if (logLog) {
      // XChart labels a log axis at powers of ten only: widen each axis to whole decades so that
      // it has labels and no point sits on its edge.
      double[] x = shown.stream().mapToDouble(PaperResult::rowsPerSecond).toArray();
      double[] y = shown.stream().mapToDouble(PaperResult::gcMillisPerMinute).toArray();
      chart.getStyler().setXAxisMin(decadeBelow(x)).setXAxisMax(decadeAbove(x));
      chart.getStyler().setYAxisMin(decadeBelow(y)).setYAxisMax(decadeAbove(y));
    }
    return chart;
  }

  static double decadeBelow(double[] values) {
    return Math.pow(10, Math.floor(Math.log10(java.util.Arrays.stream(values).min().orElse(1))));
  }

  static double decadeAbove(double[] values) {
    double max = java.util.Arrays.stream(values).max().orElse(10);
    double d = Math.pow(10, Math.ceil(Math.log10(max)));
    return d == max ? d * 10 : d;
  }

  private static Path save(Chart<?, ?> chart, Path file) {
    try (OutputStream os = Files.newOutputStream(file)) {
      BitmapEncoder.saveBitmap(chart, os, BitmapEncoder.BitmapFormat.PNG);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
