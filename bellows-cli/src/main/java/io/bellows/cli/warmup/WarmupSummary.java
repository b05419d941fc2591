package io.bellows.cli.warmup;

/**
 * A fresh JVM's throughput over its first seconds against its steady rate: the mean operations per
 * second of seconds 1 to {@code first}, and of seconds {@code steadyFrom} to the end (counting from
 * 1). Their ratio is the warm-up target (at least 0.8 for the first 10 s).
 */
public record WarmupSummary(double firstRate, double steadyRate, int first, int steadyFrom, int seconds) {

  /** The summary of {@code perSecond[i]}, the operations done in second {@code i + 1}. */
  public static WarmupSummary of(long[] perSecond, int first, int steadyFrom) {
    if (first < 1 || steadyFrom < 1 || steadyFrom > perSecond.length || first > perSecond.length) {
      throw new IllegalArgumentException("need 1 <= first (" + first + ") and 1 <= steady-from (" + steadyFrom
          + ") <= seconds (" + perSecond.length + ")");
    }
    return new WarmupSummary(mean(perSecond, 0, first), mean(perSecond, steadyFrom - 1, perSecond.length), first,
        steadyFrom, perSecond.length);
  }

  private static double mean(long[] counts, int from, int to) {
    long sum = 0;
    for (int i = from; i < to; i++) {
      sum += counts[i];
    }
    return (double) sum / (to - from);
  }

  /** First-seconds rate over steady rate; 0 when nothing was done in the steady seconds. */
  public double ratio() {
    return steadyRate == 0 ? 0 : firstRate / steadyRate;
  }

  /** One line: both rates and their ratio. */
  public String describe() {
    return String.format(java.util.Locale.ROOT, "first %d s: %,.0f ops/s; steady (s %d-%d): %,.0f ops/s;"
        + " first/steady %.2f", first, firstRate, steadyFrom, seconds, steadyRate, ratio());
  }

  /**
   * The same comparison per CPU-second of the process, with the windows set by the CPU time it had
   * used when each second began: the first window holds the seconds that began before {@code
   * firstCpu} CPU-seconds, the steady one those that began at or after {@code steadyFromCpu}. On a
   * machine shared with other work the wall-clock windows say more about the neighbours than about
   * the JIT; these hold the same share of the JVM's own work however often it waited for a core.
   * {@code cpuNanos[i]} is the CPU time used in second {@code i + 1}.
   */
  public static CpuSummary byCpu(long[] perSecond, long[] cpuNanos, double firstCpu, double steadyFromCpu) {
    long firstOps = 0;
    long firstNanos = 0;
    long steadyOps = 0;
    long steadyNanos = 0;
    long used = 0;
    for (int i = 0; i < perSecond.length; i++) {
      double began = used / 1e9;
      if (began < firstCpu) {
        firstOps += perSecond[i];
        firstNanos += cpuNanos[i];
      } else if (began >= steadyFromCpu) {
        steadyOps += perSecond[i];
        steadyNanos += cpuNanos[i];
      }
      used += cpuNanos[i];
    }
    return new CpuSummary(rate(firstOps, firstNanos), rate(steadyOps, steadyNanos), firstCpu, steadyFromCpu,
        used / 1e9);
  }

  private static double rate(long ops, long nanos) {
    return nanos == 0 ? 0 : ops / (nanos / 1e9);
  }

  /** Operations per CPU-second of the first and steady windows set by CPU time ({@link #byCpu}). */
  public record CpuSummary(double firstRate, double steadyRate, double firstCpu, double steadyFromCpu,
      double usedCpu) {
    /** Whether the run used enough CPU time to reach the steady window. */
    public boolean reached() {
      return steadyRate > 0;
    }

    public double ratio() {
      return steadyRate == 0 ? 0 : firstRate / steadyRate;
    }

    public String describe() {
      if (!reached()) {
        return String.format(java.util.Locale.ROOT, "per CPU-second: the run used %.1f CPU-s, the steady window"
            + " starts at %.0f: run longer (--seconds)", usedCpu, steadyFromCpu);
      }
      return String.format(java.util.Locale.ROOT, "per CPU-second: first %.0f CPU-s: %,.0f ops; steady (from %.0f"
          + " CPU-s): %,.0f ops; first/steady %.2f", firstCpu, firstRate, steadyFromCpu, steadyRate, ratio());
    }
  }
}
