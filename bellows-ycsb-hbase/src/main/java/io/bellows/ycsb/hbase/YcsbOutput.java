package io.bellows.ycsb.hbase;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The figures of one run of YCSB's client, read from what it prints ({@code [OVERALL],
 * Throughput(ops/sec), 41234.5}, {@code [READ], 95thPercentileLatency(us), 61}, {@code [READ],
 * Return=OK, 200000}, ...) and its status lines ({@code 2026-11-24 19:52:12:824 3 sec: 120000
 * operations; ...}, every {@code status.interval} seconds with {@code -s}). Other lines, such as the
 * store's and Hadoop's log lines, are skipped.
 *
 * @param throughput operations per second over the whole run ({@code [OVERALL]}); YCSB's run time
 *     includes each client thread's {@code init} and {@code cleanup} (opening and closing the store)
 * @param steadyThroughput operations per second between the first status line that counts
 *     operations and the last periodic one (the final line, printed after {@code cleanup}, left
 *     out): the rate once the store is open; NaN with fewer than two such lines
 * @param runtimeMillis the run's time ({@code [OVERALL], RunTime(ms)})
 * @param gcMillis the JVM's time in GC during the run ({@code [TOTAL_GC_TIME]}), −1 if not printed
 * @param operations per operation kind ({@code READ}, {@code UPDATE}, ...), in the order printed
 */
record YcsbOutput(double throughput, double steadyThroughput, long runtimeMillis, long gcMillis,
    Map<String, Operation> operations) {
  /** A YCSB metric line: {@code [NAME], measure, number}. */
  private static final Pattern METRIC = Pattern.compile("^\\[([^\\]]+)\\], ([^,]+), (-?[0-9.]+(?:[eE][-+]?[0-9]+)?)$");
  /** A status line: its time to the millisecond and the operations done so far. */
  private static final Pattern STATUS = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d):(\\d{3}) \\d+ sec: (\\d+) operations;.*");
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  /**
   * One operation kind's figures; latencies in microseconds, as YCSB measures them (−1 when not
   * printed).
   *
   * @param returns how many operations returned each status ({@code OK}, {@code NOT_FOUND}, ...)
   */
  record Operation(long count, double averageMicros, double p95Micros, double p99Micros, Map<String, Long> returns) {}

  YcsbOutput {
    operations = Collections.unmodifiableMap(new LinkedHashMap<>(operations));
  }

  /** Parses a run's output; throws if it has no overall throughput (the run did not finish). */
  static YcsbOutput parse(String text) {
    double throughput = Double.NaN;
    long runtime = -1;
    long gc = -1;
    Map<String, Builder> ops = new LinkedHashMap<>();
    List<long[]> status = new ArrayList<>(); // {millis, operations}
    for (String line : text.split("\\R")) {
      Matcher st = STATUS.matcher(line.strip());
      if (st.matches()) {
        long millis = LocalDateTime.parse(st.group(1), TIME).toInstant(ZoneOffset.UTC).toEpochMilli()
            + Integer.parseInt(st.group(2));
        status.add(new long[] {millis, Long.parseLong(st.group(3))});
        continue;
      }
      Matcher m = METRIC.matcher(line.strip());
      if (!m.matches()) {
        continue;
      }
      String name = m.group(1);
      String measure = m.group(2);
      double v = Double.parseDouble(m.group(3));
      switch (name) {
        case "OVERALL" -> {
          if (measure.equals("Throughput(ops/sec)")) {
            throughput = v;
          } else if (measure.equals("RunTime(ms)")) {
            runtime = (long) v;
          }
        }
        case "TOTAL_GC_TIME" -> gc = (long) v;
        default -> {
          if (!name.startsWith("TOTAL_GC")) {
            ops.computeIfAbsent(name, n -> new Builder()).add(measure, v);
          }
        }
      }
    }
    if (Double.isNaN(throughput)) {
      throw new IllegalArgumentException("no '[OVERALL], Throughput(ops/sec)' line: YCSB did not finish");
    }
    Map<String, Operation> out = new LinkedHashMap<>();
    ops.forEach((n, b) -> out.put(n, b.build()));
    return new YcsbOutput(throughput, steady(status), runtime, gc, out);
  }

  private static double steady(List<long[]> status) {
    List<long[]> periodic = status.subList(0, Math.max(0, status.size() - 1));
    long[] first = periodic.stream().filter(s -> s[1] > 0).findFirst().orElse(null);
    long[] last = periodic.isEmpty() ? null : periodic.get(periodic.size() - 1);
    if (first == null || last[0] <= first[0]) {
      return Double.NaN;
    }
    return (last[1] - first[1]) * 1000.0 / (last[0] - first[0]);
  }

  /**
   * The operations that did not return {@code OK}, as {@code "READ Return=ERROR: 3"} (and YCSB's
   * {@code READ-FAILED} kinds, as {@code "READ-FAILED: 3"}); a run with any is no measurement of the
   * store.
   */
  List<String> failures() {
    List<String> out = new ArrayList<>();
    operations.forEach((name, op) -> {
      if (name.endsWith("-FAILED") && op.count() > 0) {
        out.add(name + ": " + op.count());
      }
      op.returns().forEach((status, n) -> {
        if (!status.equals("OK") && n > 0) {
          out.add(name + " Return=" + status + ": " + n);
        }
      });
    });
    return out;
  }

  private static final class Builder {
    long count;
    double average = -1;
    double p95 = -1;
    double p99 = -1;
    final Map<String, Long> returns = new LinkedHashMap<>();

    void add(String measure, double v) {
      switch (measure) {
        case "Operations" -> count = (long) v;
        case "AverageLatency(us)" -> average = v;
        case "95thPercentileLatency(us)" -> p95 = v;
        case "99thPercentileLatency(us)" -> p99 = v;
        default -> {
          if (measure.startsWith("Return=")) {
            returns.put(measure.substring("Return=".length()), (long) v);
          }
        }
      }
    }

    Operation build() {
      return new Operation(count, average, p95, p99, Collections.unmodifiableMap(returns));
    }
  }
}
