package io.bellows.remote;

import java.util.concurrent.atomic.LongAdder;

/**
 * How many attempts a {@link RemoteCluster}'s calls took: a call that reached its region's leader
 * at once took one; each member tried before it (a stale leader, one that refused, an election
 * under way) is one more. A call that met a split region is routed anew over the new regions, as
 * a call of its own, and counted as a split re-route. What a client's retries cost, for benchmarks
 * and operators; the calls are not slowed by it (one add per call).
 */
public final class CallStats {
  /** Calls by attempts: index {@code i} counts calls of {@code i + 1} attempts, the last those of more. */
  private final LongAdder[] byAttempts = new LongAdder[8];
  private final LongAdder splitReroutes = new LongAdder();

  CallStats() {
    for (int i = 0; i < byAttempts.length; i++) {
      byAttempts[i] = new LongAdder();
    }
  }

  void recordCall(int attempts) {
    byAttempts[Math.min(Math.max(attempts, 1), byAttempts.length) - 1].increment();
  }

  void recordSplitReroute() {
    splitReroutes.increment();
  }

  /** No calls: what {@link Snapshot#plus} adds to. */
  public static Snapshot none() {
    return new CallStats().snapshot();
  }

  /** The counts so far. */
  public Snapshot snapshot() {
    long[] counts = new long[byAttempts.length];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = byAttempts[i].sum();
    }
    return new Snapshot(counts, splitReroutes.sum());
  }

  /**
   * Calls by attempts ({@code byAttempts[i]}: calls of {@code i + 1} attempts; the last: of 8 or
   * more) and the calls routed anew after meeting a split region.
   */
  public record Snapshot(long[] byAttempts, long splitReroutes) {
    public Snapshot {
      byAttempts = byAttempts.clone();
    }

    @Override
    public long[] byAttempts() {
      return byAttempts.clone();
    }

    /** The calls counted since {@code earlier}. */
    public Snapshot minus(Snapshot earlier) {
      long[] out = new long[byAttempts.length];
      for (int i = 0; i < out.length; i++) {
        out[i] = byAttempts[i] - earlier.byAttempts[i];
      }
      return new Snapshot(out, splitReroutes - earlier.splitReroutes);
    }

    /** These calls and {@code other}'s together. */
    public Snapshot plus(Snapshot other) {
      long[] out = new long[byAttempts.length];
      for (int i = 0; i < out.length; i++) {
        out[i] = byAttempts[i] + other.byAttempts[i];
      }
      return new Snapshot(out, splitReroutes + other.splitReroutes);
    }

    public long calls() {
      long n = 0;
      for (long c : byAttempts) {
        n += c;
      }
      return n;
    }

    /** The most attempts any counted call took (8 meaning 8 or more), 0 when none was counted. */
    public int mostAttempts() {
      for (int i = byAttempts.length - 1; i >= 0; i--) {
        if (byAttempts[i] > 0) {
          return i + 1;
        }
      }
      return 0;
    }

    /** For example {@code "1: 160, 2: 4, 3: 1; split re-routes 2"}. */
    @Override
    public String toString() {
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < byAttempts.length; i++) {
        if (byAttempts[i] > 0) {
          b.append(b.length() == 0 ? "" : ", ").append(i + 1).append(i == byAttempts.length - 1 ? "+" : "")
              .append(": ").append(byAttempts[i]);
        }
      }
      return (b.length() == 0 ? "no calls" : b) + "; split re-routes " + splitReroutes;
    }
  }
}
