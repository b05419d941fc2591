package io.bellows.cli.stress;

import java.io.PrintStream;
import java.util.concurrent.atomic.LongAdder;

/** What a stress run did and found, counted from every thread. */
final class StressCounters {
  /** Violations printed in full; the rest are only counted. */
  private static final int PRINTED_VIOLATIONS = 20;

  final LongAdder puts = new LongAdder();
  final LongAdder deletes = new LongAdder();
  final LongAdder batches = new LongAdder();
  final LongAdder gets = new LongAdder();
  final LongAdder scans = new LongAdder();
  final LongAdder admin = new LongAdder();
  /** Operations that failed with an exception: their writes are in doubt until a reopen. */
  final LongAdder errors = new LongAdder();
  /** Operations cut off by a simulated power loss or a fault window's end: expected, not errors. */
  final LongAdder interrupted = new LongAdder();
  final LongAdder verified = new LongAdder();
  /** While set, failing operations are counted as {@link #interrupted}: the file system was taken away. */
  volatile boolean failuresExpected;
  final LongAdder violations = new LongAdder();
  private final PrintStream out;

  StressCounters(PrintStream out) {
    this.out = out;
  }

  long operations() {
    return puts.sum() + deletes.sum() + batches.sum() + gets.sum() + scans.sum() + admin.sum();
  }

  void violation(String what) {
    violations.increment();
    if (violations.sum() <= PRINTED_VIOLATIONS) {
      synchronized (out) {
        out.println("VIOLATION " + what);
        out.flush();
      }
    }
  }

  void error(String what, Throwable e) {
    if (failuresExpected) {
      interrupted.increment();
      return;
    }
    errors.increment();
    if (errors.sum() <= PRINTED_VIOLATIONS) {
      synchronized (out) {
        out.println("ERROR " + what + ": " + e);
        out.flush();
      }
    }
  }
}
