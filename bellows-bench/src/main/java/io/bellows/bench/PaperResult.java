package io.bellows.bench;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one run of the paper suite measured, as the child JVM reports it to the parent in one line
 * of flat JSON ({@link #toJson}, {@link #fromJson}) and as the reports and charts read it. A figure
 * the store does not expose is {@link #NA} (-1) and shown as "n/a". Write-phase figures (time, WAL,
 * GC, stall) cover the timed puts; flush and compaction figures also cover the final flush that
 * puts the rest of the data on disk; CPU time and peak heap cover the whole run in the child
 * process. Immutable.
 *
 * @param config the configuration's label ({@link PaperConfig#spec})
 * @param keys the key distribution: {@code zipf} or {@code uniform}
 * @param store {@code bellows} or {@code rocksdb}
 * @param rows rows written
 * @param writeNanos duration of the write phase
 * @param flushes disk flushes
 * @param compactions disk compactions (completed)
 * @param flushBytes bytes written by flushes
 * @param compactionBytes bytes written by compactions
 * @param walBytes bytes appended to the write-ahead log
 * @param userBytes bytes of serialized cells the puts carried (rows × 4 × 76)
 * @param gcCount collections during the write phase
 * @param gcMillis collection time during the write phase
 * @param cpuMillis CPU time of the whole child process over the run (all threads, native ones too)
 * @param peakHeapBytes peak Java heap of the child (sum of the heap pools' peaks)
 * @param stallMillis time writers were blocked (Bellows) or stalled (RocksDB's STALL_MICROS)
 * @param storeFiles sorted files at the end
 */
record PaperResult(String config, String keys, String store, long rows, long writeNanos, long flushes,
    long compactions, long flushBytes, long compactionBytes, long walBytes, long userBytes, long gcCount,
    long gcMillis, long cpuMillis, long peakHeapBytes, long stallMillis, long storeFiles) {
  /** A figure the store does not expose. */
  static final long NA = -1;
  /** The prefix of the child's result line. */
  static final String LINE_PREFIX = "PAPER-RESULT ";

  private static final Pattern FIELD = Pattern.compile("\"(\\w+)\":(?:\"([^\"]*)\"|(-?\\d+))");

  double rowsPerSecond() {
    return rows * 1e9 / writeNanos;
  }

  double writeSeconds() {
    return writeNanos / 1e9;
  }

  /** Bytes written to sorted files (flushes + compactions) per byte of user data; the WAL is excluded. */
  double writeAmplification() {
    return (double) (flushBytes + compactionBytes) / userBytes;
  }

  /** GC time per minute of writing, as the paper's Figure 7 plots it. */
  double gcMillisPerMinute() {
    return gcMillis * 60.0 / writeSeconds();
  }

  String toJson() {
    StringBuilder sb = new StringBuilder("{");
    fields().forEach((k, v) -> {
      if (sb.length() > 1) {
        sb.append(',');
      }
      sb.append('"').append(k).append("\":");
      sb.append(v instanceof String ? "\"" + v + "\"" : v.toString());
    });
    return sb.append('}').toString();
  }

  /** Name → value in declaration order (also the CSV's columns). */
  Map<String, Object> fields() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("config", config);
    m.put("keys", keys);
    m.put("store", store);
    m.put("rows", rows);
    m.put("writeNanos", writeNanos);
    m.put("flushes", flushes);
    m.put("compactions", compactions);
    m.put("flushBytes", flushBytes);
    m.put("compactionBytes", compactionBytes);
    m.put("walBytes", walBytes);
    m.put("userBytes", userBytes);
    m.put("gcCount", gcCount);
    m.put("gcMillis", gcMillis);
    m.put("cpuMillis", cpuMillis);
    m.put("peakHeapBytes", peakHeapBytes);
    m.put("stallMillis", stallMillis);
    m.put("storeFiles", storeFiles);
    return m;
  }

  static PaperResult fromJson(String json) {
    Map<String, String> v = new LinkedHashMap<>();
    Matcher m = FIELD.matcher(json);
    while (m.find()) {
      v.put(m.group(1), m.group(2) != null ? m.group(2) : m.group(3));
    }
    try {
      return new PaperResult(v.get("config"), v.get("keys"), v.get("store"), num(v, "rows"), num(v, "writeNanos"),
          num(v, "flushes"), num(v, "compactions"), num(v, "flushBytes"), num(v, "compactionBytes"),
          num(v, "walBytes"), num(v, "userBytes"), num(v, "gcCount"), num(v, "gcMillis"), num(v, "cpuMillis"),
          num(v, "peakHeapBytes"), num(v, "stallMillis"), num(v, "storeFiles"));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not a result line: " + json, e);
    }
  }

  private static long num(Map<String, String> v, String name) {
    String s = v.get(name);
    if (s == null) {
      throw new IllegalArgumentException("missing " + name);
    }
    return Long.parseLong(s);
  }

  /** A one-line summary for the progress log. */
  String summary() {
    return String.format(Locale.ROOT, "%,.0f rows/s, %d flushes, %d compactions, flush+compaction %.1f MB"
            + " (%.2f × user bytes), WAL %.1f MB, GC %d ms in %d, CPU %.1f s, peak heap %d MB, stall %s",
        rowsPerSecond(), flushes, compactions, (flushBytes + compactionBytes) / 1e6, writeAmplification(),
        walBytes / 1e6, gcMillis, gcCount, cpuMillis / 1e3, peakHeapBytes >> 20,
        stallMillis == NA ? "n/a" : stallMillis + " ms");
  }
}
