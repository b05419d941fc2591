package io.bellows.bench;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One run (or load) of {@code bench read}: its configuration, workload and named figures, passed
 * from the child JVM to the parent as one line of {@code name=value} pairs. A figure the store did
 * not report is absent and reads as NaN, so that "not measured" never looks like zero. Immutable.
 */
record ReadResult(String config, String workload, Map<String, Double> figures) {
  static final String LINE_PREFIX = "READ-RESULT ";

  // Figures of a measured run.
  static final String OPS = "ops";
  static final String GETS = "gets";
  static final String UPDATES = "updates";
  static final String MISSES = "misses";
  static final String SECONDS = "seconds";
  static final String OPS_PER_SECOND = "opsPerSecond";
  static final String GET_AVG_MICROS = "getAvgMicros";
  static final String GET_P95_MICROS = "getP95Micros";
  static final String GET_P99_MICROS = "getP99Micros";
  static final String FILE_BYTES_READ = "fileBytesRead";
  static final String FILE_PAGES_READ = "filePagesRead";
  /** 1 if the store does not count pages and they were estimated from blocks and bytes read. */
  static final String FILE_PAGES_ESTIMATED = "filePagesEstimated";
  static final String BLOCKS_READ = "blocksRead";
  static final String RETURNED_BYTES = "returnedBytes";
  static final String RETURNED_PAGES = "returnedPages";
  /** The engine's own count of what gets returned (cells with their keys), to check the client's against. */
  static final String ENGINE_RETURNED_BYTES = "engineReturnedBytes";
  static final String ENGINE_RETURNED_PAGES = "engineReturnedPages";
  static final String READ_AMP_BYTES = "readAmpBytes";
  static final String READ_AMP_PAGES = "readAmpPages";
  static final String LOOKUPS = "lookups";
  static final String CACHED_LOOKUPS = "cachedLookups";
  static final String HIT_RATIO = "hitRatio";
  static final String KV_HITS = "kvHits";
  static final String KV_MISSES = "kvMisses";
  static final String KV_PROMOTIONS = "kvPromotions";
  static final String KV_EVICTIONS = "kvEvictions";
  static final String KV_BYTES = "kvBytes";
  static final String KV_MAX_BYTES = "kvMaxBytes";
  static final String KV_ENTRIES = "kvEntries";
  /** Times the KV cache raised its size limit by a step (its dynamic sizing at work). */
  static final String KV_GROWS = "kvGrows";
  /** Times it lowered its limit by a step. */
  static final String KV_SHRINKS = "kvShrinks";
  // Figures of the loaded files (a load reports them; every run repeats them).
  static final String DATA_BLOCKS = "dataBlocks";
  static final String FILE_BYTES = "fileBytes";
  static final String LOAD_SECONDS = "loadSeconds";

  ReadResult {
    figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
  }

  /** This result with {@code more} figures added, except those it already has. */
  ReadResult withDefaults(Map<String, Double> more) {
    Map<String, Double> f = new LinkedHashMap<>(figures);
    more.forEach(f::putIfAbsent);
    return new ReadResult(config, workload, f);
  }

  double get(String name) {
    return figures.getOrDefault(name, Double.NaN);
  }

  boolean has(String name) {
    return !Double.isNaN(get(name));
  }

  String toLine() {
    StringBuilder sb = new StringBuilder(LINE_PREFIX).append("config=").append(config).append(" workload=")
        .append(workload);
    figures.forEach((k, v) -> {
      if (!Double.isNaN(v)) {
        sb.append(' ').append(k).append('=').append(v);
      }
    });
    return sb.toString();
  }

  static ReadResult fromLine(String line) {
    String body = line.startsWith(LINE_PREFIX) ? line.substring(LINE_PREFIX.length()) : line;
    String config = null;
    String workload = null;
    Map<String, Double> figures = new LinkedHashMap<>();
    for (String pair : body.trim().split(" ")) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("not a result line: " + line);
      }
      String k = pair.substring(0, eq);
      String v = pair.substring(eq + 1);
      switch (k) {
        case "config" -> config = v;
        case "workload" -> workload = v;
        default -> figures.put(k, Double.parseDouble(v));
      }
    }
    if (config == null || workload == null) {
      throw new IllegalArgumentException("not a result line: " + line);
    }
    return new ReadResult(config, workload, figures);
  }

  /** The one-line summary printed after a run. */
  String summary() {
    return String.format(Locale.ROOT, "%,.0f ops/s, get p99 %.0f µs, read amp %s pages / %s bytes, hit ratio %s,"
            + " misses %.0f", get(OPS_PER_SECOND), get(GET_P99_MICROS), fmt(get(READ_AMP_PAGES)),
        fmt(get(READ_AMP_BYTES)), fmt(get(HIT_RATIO)), get(MISSES));
  }

  static String fmt(double v) {
    return Double.isNaN(v) || Double.isInfinite(v) ? "-" : String.format(Locale.ROOT, "%.2f", v);
  }
}
