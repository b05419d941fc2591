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
}
