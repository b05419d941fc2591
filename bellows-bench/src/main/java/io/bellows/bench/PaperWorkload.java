package io.bellows.bench;

import java.util.Locale;

/** The paper's workloads (§4.2) as {@code bench paper --workload} names them. */
enum PaperWorkload {
  /** §4.2.1: puts only, from an empty table; throughput, disk I/O, GC. */
  WRITE("write"),
  /**
   * §4.2.2: after an unreported load, writers keep putting while readers get single cells of
   * Zipf-chosen rows; get latency percentiles.
   */
  READ_WRITE("read-write"),
  /** §4.2.3 (YCSB workload E): after an unreported load, 95% scans of 1–100 rows, 5% puts; scan latency. */
  SCAN_WRITE("scan-write");

  final String label;

  PaperWorkload(String label) {
    this.label = label;
  }

  static PaperWorkload parse(String s) {
    for (PaperWorkload w : values()) {
      if (w.label.equals(s.trim().toLowerCase(Locale.ROOT))) {
        return w;
      }
    }
    throw new IllegalArgumentException("unknown workload '" + s + "': use write, read-write or scan-write");
  }
}
