package io.bellows.cli.stress;

/** Totals of a stress run (or of one process of it), as printed and as passed from a child. */
record StressStats(long puts, long deletes, long batches, long gets, long scans, long admin, long errors,
    long verified, long violations) {
  static final StressStats ZERO = new StressStats(0, 0, 0, 0, 0, 0, 0, 0, 0);
  private static final String PREFIX = "STATS";

  static StressStats of(StressCounters c) {
    return new StressStats(c.puts.sum(), c.deletes.sum(), c.batches.sum(), c.gets.sum(), c.scans.sum(),
        c.admin.sum(), c.errors.sum(), c.verified.sum(), c.violations.sum());
  }

  long operations() {
    return puts + deletes + batches + gets + scans + admin;
  }

  StressStats plus(StressStats o) {
    return new StressStats(puts + o.puts, deletes + o.deletes, batches + o.batches, gets + o.gets,
        scans + o.scans, admin + o.admin, errors + o.errors, verified + o.verified, violations + o.violations);
  }

  /** The line a child prints for its parent. */
  String toLine() {
    return String.join(" ", PREFIX, Long.toString(puts), Long.toString(deletes), Long.toString(batches),
        Long.toString(gets), Long.toString(scans), Long.toString(admin), Long.toString(errors),
        Long.toString(verified), Long.toString(violations));
  }

  /** Parses {@link #toLine()}; null if the line is not one. */
  static StressStats parse(String line) {
    String[] f = line.split(" ");
    if (f.length != 10 || !f[0].equals(PREFIX)) {
      return null;
    }
    long[] v = new long[9];
    for (int i = 0; i < 9; i++) {
      v[i] = Long.parseLong(f[i + 1]);
    }
    return new StressStats(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
  }
}
