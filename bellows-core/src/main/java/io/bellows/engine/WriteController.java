package io.bellows.engine;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The pacing half of back-pressure: how long a write waits while the engine is near, but not at,
 * a hard limit. Near a limit (memory or sorted files piling up faster than flushes and compactions
 * drain them) writes are <em>delayed</em> — paced to a rate that falls as the limit comes closer —
 * instead of running at full speed into a multi-second stall; only at the limit itself do they
 * stop (the caller's wait, not this class).
 *
 * <p>A pressure signal is a position in its slow-down zone: 0 at the zone's start, 1 at the hard
 * limit ({@link #position}). The allowed rate at position p is {@code maxRate × (1 − p)}, never
 * below {@code maxRate / 64}. All delayed writers share one schedule (as RocksDB's write
 * controller does): each takes the next free slot, {@code bytes / rate} long, and waits for it, so
 * the engine as a whole writes at about the allowed rate however many threads write.
 *
 * <p>Thread-safe and lock-free; time comes from the caller, so tests need no clock.
 */
final class WriteController {
  private static final double MIN_RATE_FRACTION = 1.0 / 64;

  private final double maxBytesPerSecond;
  /** The end of the last slot handed out, in {@code System.nanoTime()} terms. */
  private final AtomicLong nextFreeNanos = new AtomicLong(Long.MIN_VALUE);

  WriteController(double maxBytesPerSecond) {
    if (!(maxBytesPerSecond > 0)) {
      throw new IllegalArgumentException("the delayed write rate must be positive: " + maxBytesPerSecond);
    }
    this.maxBytesPerSecond = maxBytesPerSecond;
  }

  /**
   * Where {@code value} lies in the zone from {@code start} to {@code limit}: 0 or less below the
   * zone (no delay), 1 or more at or past the limit.
   */
  static double position(double value, double start, double limit) {
    if (limit <= start) {
      return value >= limit ? 1 : 0;
    }
    return (value - start) / (limit - start);
  }

  /** The rate writes are paced to at a zone position in (0, 1). */
  double allowedBytesPerSecond(double position) {
    double p = Math.min(Math.max(position, 0), 1);
    return Math.max(maxBytesPerSecond * (1 - p), maxBytesPerSecond * MIN_RATE_FRACTION);
  }

  /**
   * Reserves a slot for a write of {@code bytes} at {@code nowNanos} and returns how long the
   * writer waits for it: 0 when the position is 0 or less (outside the zone). The caller waits
   * (and stalls instead at position 1 or more — a slot is not a way past a hard limit).
   */
  long delayNanos(long bytes, double position, long nowNanos) {
    if (position <= 0) {
      return 0;
    }
    long length = (long) Math.ceil(bytes * 1e9 / allowedBytesPerSecond(position));
    for (;;) {
      long next = nextFreeNanos.get();
      // A schedule left idle does not bank credit: an idle past never lets a burst through.
      long start = next == Long.MIN_VALUE || next - nowNanos < 0 ? nowNanos : next;
      if (nextFreeNanos.compareAndSet(next, start + length)) {
        return start + length - nowNanos;
      }
    }
  }
}
