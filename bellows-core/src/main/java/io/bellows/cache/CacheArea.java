package io.bellows.cache;

/**
 * The three areas of the on-heap cache (HBase's LruBlockCache priorities). A block enters SINGLE
 * (or MEMORY for an {@code IN_MEMORY} family) and moves to MULTI on its second access, so one scan
 * over cold data cannot push out blocks that are read again and again. Each area has a share of the
 * cache; an area under its share is not evicted from while another is over its own.
 */
public enum CacheArea {
  SINGLE(0.25),
  MULTI(0.50),
  MEMORY(0.25);

  private final double share;

  CacheArea(double share) {
    this.share = share;
  }

  /** This area's share of the cache (the three add up to 1). */
  public double share() {
    return share;
  }

  String metricName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
