package io.bellows.memstore;

import java.util.function.DoubleSupplier;

/**
 * ADAPTIVE's decision between merging indexes and compacting data (paper, section 3.2). The
 * throttle {@code t} starts at 0.5, grows by 2% with every in-memory flush (capped at 1) and returns
 * to 0.5 on every disk flush, so compaction becomes likelier the more data the memory store holds.
 * The uniqueness {@code u} is the fraction of distinct columns seen by the last flatten or merge.
 * A step compacts with probability {@code t} when the redundancy {@code 1 - u} exceeds {@code R}.
 *
 * <p>{@code u} starts at 1 (no evidence of redundancy yet), so the first reduction of the pipeline
 * merges, as the paper prescribes for the first in-memory compaction.
 *
 * <p>Thread-safety: the fields are volatile; in-memory flushes and snapshots update {@code t} under
 * the store's swap lock and the single compaction thread updates {@code u}.
 */
final class AdaptivePolicy {
  static final double INITIAL_THROTTLE = 0.5;
  static final double THROTTLE_GROWTH = 1.02;

  private final double threshold;
  private final DoubleSupplier random;
  private volatile double throttle = INITIAL_THROTTLE;
  private volatile double uniqueness = 1.0;

  /** @param random uniform draws in [0, 1); seeded or scripted in tests */
  AdaptivePolicy(double threshold, DoubleSupplier random) {
    this.threshold = threshold;
    this.random = random;
  }

  void onInMemoryFlush() {
    throttle = Math.min(1.0, throttle * THROTTLE_GROWTH);
  }

  void onDiskFlush() {
    throttle = INITIAL_THROTTLE;
  }

  void observeUniqueness(double u) {
    uniqueness = u;
  }

  /** Whether the next pipeline reduction should eliminate redundant data. */
  boolean shouldCompact() {
    if (1.0 - uniqueness <= threshold) {
      return false; // no draw: all-unique data costs nothing here
    }
    return random.getAsDouble() < throttle;
  }

  double throttle() {
    return throttle;
  }

  double uniqueness() {
    return uniqueness;
  }
}
