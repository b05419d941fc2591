package io.bellows.cache;

/**
 * What a cached block holds, for routing and metrics. Data blocks may live in either level; index
 * and Bloom blocks only in the on-heap level (L1), where a lookup costs no copy. Immutable.
 */
public enum BlockKind {
  DATA,
  INDEX,
  BLOOM;

  /** Lower-case name used in metric names. */
  String metricName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
