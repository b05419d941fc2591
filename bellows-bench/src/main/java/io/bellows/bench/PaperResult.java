package io.bellows.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

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
 * @param workload {@code write}, {@code read-write} or {@code scan-write} ({@link PaperWorkload})
 * @param readOps gets (read-write) or scans (scan-write) of the measured phase; 0 for write
 * @param readMisses gets that found no cell, or scans that found no row
 * @param readP50 read latency percentiles in nanoseconds ({@link #NA} for write)
 * @param secondHalfNanos time from the moment half the rows were written to the last ({@link #NA}
 *     when not measured: the mixed workloads): the rate past the JIT's warm-up, which on two cores
 *     takes a Bellows JVM 10-30 s of C2 compilation
 * @param flushedCells cells the flushes wrote to files ({@link #NA} for RocksDB)
 * @param memoryEliminatedCells cells the memory store dropped before any flush: overwritten versions
 *     removed by Accordion's in-memory compactions (0 for NONE, {@link #NA} for RocksDB)
 * @param walFilesRolled WAL files the write phase closed and replaced ({@link #NA} for RocksDB and
 *     the mixed workloads)
 * @param walFilesLive WAL files kept at the end of the write phase, before the final flush: the
 *     evaluation draft's evidence of how soon flushes let the log be truncated ({@link #NA} likewise)
 * @param readCpuNanos CPU time the reading threads used in the measured phase ({@link #NA} for
 *     write, and in results written before it was measured): with {@code readOps}, what a read costs,
 *     apart from how much of the machine the reader got while the writers ran
 * @param writeP50 latency of the timed write calls (a batch of rows each) in nanoseconds, median; the
 *     call alone, not a paced writer's wait for its next turn ({@link #NA} for scan-write, and in
 *     results written before it was measured)
 * @param writeP99 likewise, 99th percentile
 * @param writeP999 likewise, 99.9th percentile
 * @param writeMax likewise, the slowest call
 */
record PaperResult(String config, String keys, String store, long rows, long writeNanos, long flushes,
    long compactions, long flushBytes, long compactionBytes, long walBytes, long userBytes, long gcCount,
    long gcMillis, long cpuMillis, long peakHeapBytes, long stallMillis, long storeFiles, String workload,
    long readOps, long readMisses, long readP50, long readP75, long readP90, long readP95, long readP99,
    long secondHalfNanos, long flushedCells, long memoryEliminatedCells, long walFilesRolled, long walFilesLive,
    long readCpuNanos, long writeP50, long writeP99, long writeP999, long writeMax) {
  /** A figure the store does not expose. */
  static final long NA = -1;
  /** The prefix of the child's result line. */
  static final String LINE_PREFIX = "PAPER-RESULT ";

  /** The result of a write-only run (no reads). */
  PaperResult(String config, String keys, String store, long rows, long writeNanos, long flushes, long compactions,
      long flushBytes, long compactionBytes, long walBytes, long userBytes, long gcCount, long gcMillis,
      long cpuMillis, long peakHeapBytes, long stallMillis, long storeFiles) {
    this(config, keys, store, rows, writeNanos, flushes, compactions, flushBytes, compactionBytes, walBytes, userBytes,
        gcCount, gcMillis, cpuMillis, peakHeapBytes, stallMillis, storeFiles, PaperWorkload.WRITE.label, 0, 0, NA, NA,
        NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA);
  }

  /** The same result with the process's CPU time and peak heap, measured around the run. */
  PaperResult withProcess(long cpu, long peakHeap) {
    return new PaperResult(config, keys, store, rows, writeNanos, flushes, compactions, flushBytes, compactionBytes,
        walBytes, userBytes, gcCount, gcMillis, cpu, peakHeap, stallMillis, storeFiles, workload, readOps, readMisses,
        readP50, readP75, readP90, readP95, readP99, secondHalfNanos, flushedCells, memoryEliminatedCells, walFilesRolled,
        walFilesLive, readCpuNanos, writeP50, writeP99, writeP999, writeMax);
  }

  /** The same result with the duration of the second half of its rows. */
  PaperResult withSecondHalf(long nanos) {
    return new PaperResult(config, keys, store, rows, writeNanos, flushes, compactions, flushBytes, compactionBytes,
        walBytes, userBytes, gcCount, gcMillis, cpuMillis, peakHeapBytes, stallMillis, storeFiles, workload, readOps,
        readMisses, readP50, readP75, readP90, readP95, readP99, nanos, flushedCells, memoryEliminatedCells,
        walFilesRolled, walFilesLive, readCpuNanos, writeP50, writeP99, writeP999, writeMax);
  }

  /** The same result with the memory store's cell counts ({@link #NA} where the store has none). */
  PaperResult withCells(long flushed, long eliminatedInMemory) {
    return new PaperResult(config, keys, store, rows, writeNanos, flushes, compactions, flushBytes, compactionBytes,
        walBytes, userBytes, gcCount, gcMillis, cpuMillis, peakHeapBytes, stallMillis, storeFiles, workload, readOps,
        readMisses, readP50, readP75, readP90, readP95, readP99, secondHalfNanos, flushed, eliminatedInMemory,
        walFilesRolled, walFilesLive, readCpuNanos, writeP50, writeP99, writeP999, writeMax);
  }

  /** The same result with the WAL's file counts ({@link #NA} where not measured). */
  PaperResult withWalFiles(long rolled, long live) {
    return new PaperResult(config, keys, store, rows, writeNanos, flushes, compactions, flushBytes, compactionBytes,
        walBytes, userBytes, gcCount, gcMillis, cpuMillis, peakHeapBytes, stallMillis, storeFiles, workload, readOps,
        readMisses, readP50, readP75, readP90, readP95, readP99, secondHalfNanos, flushedCells, memoryEliminatedCells,
        rolled, live, readCpuNanos, writeP50, writeP99, writeP999, writeMax);
  }

  /** The same result with the write calls' latencies from {@code h} (nanoseconds; empty: {@link #NA}). */
  PaperResult withWriteLatency(Histogram h) {
    boolean none = h.getTotalCount() == 0;
    return new PaperResult(config, keys, store, rows, writeNanos, flushes, compactions, flushBytes, compactionBytes,
        walBytes, userBytes, gcCount, gcMillis, cpuMillis, peakHeapBytes, stallMillis, storeFiles, workload, readOps,
        readMisses, readP50, readP75, readP90, readP95, readP99, secondHalfNanos, flushedCells, memoryEliminatedCells,
        walFilesRolled, walFilesLive, readCpuNanos, none ? NA : h.getValueAtPercentile(50),
        none ? NA : h.getValueAtPercentile(99), none ? NA : h.getValueAtPercentile(99.9), none ? NA : h.getMaxValue());
  }

  /** Rows per second over the second half of the rows, or {@link #NA} if not measured. */
  double secondHalfRowsPerSecond() {
    return secondHalfNanos <= 0 ? NA : (rows - rows / 2) * 1e9 / secondHalfNanos;
  }

  /** CPU microseconds the readers spent per read, or {@link #NA} if not measured. */
  double readCpuMicrosPerOp() {
    return readCpuNanos < 0 || readOps == 0 ? NA : readCpuNanos / 1e3 / readOps;
  }

  /** Cores the readers kept busy on average over the measured phase, or {@link #NA} if not measured. */
  double readCores() {
    return readCpuNanos < 0 ? NA : (double) readCpuNanos / writeNanos;
  }

  /** Reads per second over the measured phase (0 for write). */
  double readsPerSecond() {
    return readOps * 1e9 / writeNanos;
  }

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
    m.put("workload", workload);
    m.put("readOps", readOps);
    m.put("readMisses", readMisses);
    m.put("readP50", readP50);
    m.put("readP75", readP75);
    m.put("readP90", readP90);
    m.put("readP95", readP95);
    m.put("readP99", readP99);
    m.put("secondHalfNanos", secondHalfNanos);
    m.put("flushedCells", flushedCells);
    m.put("memoryEliminatedCells", memoryEliminatedCells);
    m.put("walFilesRolled", walFilesRolled);
    m.put("walFilesLive", walFilesLive);
    m.put("readCpuNanos", readCpuNanos);
    m.put("writeP50", writeP50);
    m.put("writeP99", writeP99);
    m.put("writeP999", writeP999);
    m.put("writeMax", writeMax);
    return m;
  }

  static PaperResult fromJson(String json) {
    Map<String, String> v = new LinkedHashMap<>();
    Matcher m = FIELD.matcher(json);
    while (m.find()) {
      v.put(m.group(1), m.group(2) != null ? m.group(2) : m.group(3));
    }
    try {
      return fromFields(v);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not a result line: " + json, e);
    }
  }

  /**
   * A run from one line of a report's {@code runs.csv} ({@link PaperReport#csv}), given its header:
   * the inverse of {@link #fields} (the derived columns after them are ignored).
   */
  static PaperResult fromCsv(List<String> header, String line) {
    String[] cells = line.split(",", -1);
    if (cells.length != header.size()) {
      throw new IllegalArgumentException("a runs.csv line of " + cells.length + " cells under a header of "
          + header.size() + ": " + line);
    }
    Map<String, String> v = new LinkedHashMap<>();
    for (int i = 0; i < cells.length; i++) {
      v.put(header.get(i), cells[i]);
    }
    try {
      return fromFields(v);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not a runs.csv line: " + line, e);
    }
  }

  private static PaperResult fromFields(Map<String, String> v) {
    return new PaperResult(v.get("config"), v.get("keys"), v.get("store"), num(v, "rows"), num(v, "writeNanos"),
        num(v, "flushes"), num(v, "compactions"), num(v, "flushBytes"), num(v, "compactionBytes"),
        num(v, "walBytes"), num(v, "userBytes"), num(v, "gcCount"), num(v, "gcMillis"), num(v, "cpuMillis"),
        num(v, "peakHeapBytes"), num(v, "stallMillis"), num(v, "storeFiles"), v.get("workload"),
        num(v, "readOps"), num(v, "readMisses"), num(v, "readP50"), num(v, "readP75"), num(v, "readP90"),
        num(v, "readP95"), num(v, "readP99"), num(v, "secondHalfNanos"), num(v, "flushedCells"),
        num(v, "memoryEliminatedCells"), optional(v, "walFilesRolled"), optional(v, "walFilesLive"),
        optional(v, "readCpuNanos"), optional(v, "writeP50"), optional(v, "writeP99"), optional(v, "writeP999"),
        optional(v, "writeMax"));
  }

  private static long optional(Map<String, String> v, String name) {
    return v.containsKey(name) ? num(v, name) : NA;
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
    String reads = readOps == 0 ? "" : String.format(Locale.ROOT, "%,d %s (%,.0f/s, %d empty), p50 %.0f µs,"
            + " p99 %.0f µs%s; ", readOps, workload.equals("scan-write") ? "scans" : "gets", readsPerSecond(), readMisses,
        readP50 / 1e3, readP99 / 1e3, readCpuNanos < 0 ? "" : String.format(Locale.ROOT,
            ", reader CPU %.1f µs each, %.2f of a core", readCpuMicrosPerOp(), readCores()));
    String half = secondHalfNanos <= 0 ? "" : String.format(Locale.ROOT, " (second half %,.0f)",
        secondHalfRowsPerSecond());
    String writes = writeP99 < 0 ? "" : String.format(Locale.ROOT, ", write call p99 %.2f ms, p99.9 %.2f ms",
        writeP99 / 1e6, writeP999 / 1e6);
    return reads + String.format(Locale.ROOT, "%,.0f rows/s%s%s, %d flushes, %d compactions, flush+compaction %.1f MB"
            + " (%.2f × user bytes), WAL %.1f MB, GC %d ms in %d, CPU %.1f s, peak heap %d MB, stall %s",
        rowsPerSecond(), half, writes, flushes, compactions, (flushBytes + compactionBytes) / 1e6, writeAmplification(),
        walBytes / 1e6, gcMillis, gcCount, cpuMillis / 1e3, peakHeapBytes >> 20,
        stallMillis == NA ? "n/a" : stallMillis + " ms");
  }
}
