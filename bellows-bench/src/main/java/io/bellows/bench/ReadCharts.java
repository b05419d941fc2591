package io.bellows.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

/**
 * PNG charts of {@code bench read}, drawn with XChart (headless), one bar per configuration and
 * workload as the paper's Figures 9–11: throughput, read amplification (pages) and cache hit ratio;
 * and per workload get latency (average, p95, p99) per configuration as its Figure 12. A figure not
 * measured is drawn as 0. Stateless.
 */
final class ReadCharts {
  static final String THROUGHPUT = "throughput.png";
  static final String READ_AMPLIFICATION = "read-amplification.png";
  static final String HIT_RATIO = "hit-ratio.png";
  /** Read amplification per window of operations (--window), one line per run: the paper's Figure 9. */
  static final String READ_AMPLIFICATION_WINDOWS = "read-amplification-windows.png";

  private ReadCharts() {}

  static String latencyFileName(String workload) {
    return "latency-" + workload + ".png";
  }

  /** Writes every chart into {@code dir} and returns the files written. */
  static List<Path> write(Path dir, ReadReport report) {
    System.setProperty("java.awt.headless", "true");
    List<Path> out = new ArrayList<>();
    out.add(save(perWorkload(report, "Throughput", "ops/s", ReadResult.OPS_PER_SECOND, "#,###"),
        dir.resolve(THROUGHPUT)));
    out.add(save(perWorkload(report, "Read amplification (file pages read ÷ pages returned)", "ratio",
        ReadResult.READ_AMP_PAGES, "#,##0.0"), dir.resolve(READ_AMPLIFICATION)));
    out.add(save(perWorkload(report, "Cache hit ratio (cached file lookups ÷ file lookups)", "ratio",
        ReadResult.HIT_RATIO, "0.00"), dir.resolve(HIT_RATIO)));
    for (String w : report.workloads()) {
      out.add(save(latency(report, w), dir.resolve(latencyFileName(w))));
    }
    if (report.hasWindows()) {
      out.add(save(windows(report), dir.resolve(READ_AMPLIFICATION_WINDOWS)));
    }
    return out;
  }

  static CategoryChart perWorkload(ReadReport report, String title, String unit, String figure, String pattern) {
    CategoryChart chart = chart(title + " per configuration", unit, pattern);
    for (String w : report.workloads()) {
      chart.addSeries(w, report.configs(), values(report, w, figure));
    }
    return chart;
  }

  static CategoryChart latency(ReadReport report, String workload) {
    CategoryChart chart = chart("Get latency per configuration, " + workload, "µs", "#,###");
    chart.addSeries("average", report.configs(), values(report, workload, ReadResult.GET_AVG_MICROS));
    chart.addSeries("p95", report.configs(), values(report, workload, ReadResult.GET_P95_MICROS));
    chart.addSeries("p99", report.configs(), values(report, workload, ReadResult.GET_P99_MICROS));
    return chart;
  }

  /** Read amplification (pages) against the window's number, one line per run that has windows. */
  static XYChart windows(ReadReport report) {
    XYChart chart = new XYChartBuilder().width(1100).height(560)
        .title("Read amplification (file pages read ÷ pages returned) per window of operations")
        .xAxisTitle("window").yAxisTitle("ratio").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setYAxisDecimalPattern("#,##0.0");
    for (String w : report.workloads()) {
      for (String c : report.configs()) {
        List<Number> x = new ArrayList<>();
        List<Number> y = new ArrayList<>();
        for (int k = 1; k <= report.windows(); k++) {
          double v = report.figure(w, c, ReadRunner.windowFigure(k, ReadResult.READ_AMP_PAGES));
          if (!Double.isNaN(v) && !Double.isInfinite(v)) {
            x.add(k);
            y.add(v);
          }
        }
        if (!x.isEmpty()) {
          chart.addSeries(w + " " + c, x, y);
        }
      }
    }
    return chart;
  }

  private static CategoryChart chart(String title, String unit, String pattern) {
    CategoryChart chart = new CategoryChartBuilder().width(1100).height(560).title(title)
        .xAxisTitle("configuration").yAxisTitle(unit).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setXAxisLabelRotation(30);
    chart.getStyler().setYAxisDecimalPattern(pattern);
    return chart;
  }

  private static List<Number> values(ReadReport report, String workload, String figure) {
    List<Number> y = new ArrayList<>();
    for (String c : report.configs()) {
      double v = report.figure(workload, c, figure);
      y.add(Double.isNaN(v) || Double.isInfinite(v) ? 0.0 : v);
    }
    return y;
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
