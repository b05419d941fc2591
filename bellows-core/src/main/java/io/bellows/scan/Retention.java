package io.bellows.scan;

/**
 * A column family's retention rules, resolved once from its {@code VERSIONS}, {@code MIN_VERSIONS}
 * and {@code TTL} settings (by the region, when a store is opened): what {@link VersionTracker}
 * applies to reads and rewrites. Immutable.
 *
 * @param maxVersions most versions of a column kept and returned (at least 1)
 * @param minVersions versions of a column kept even after they expire (0 to {@code maxVersions})
 * @param ttlMillis age in milliseconds beyond which a version expires; {@link Long#MAX_VALUE} for
 *     forever
 */
public record Retention(int maxVersions, int minVersions, long ttlMillis) {
  /** One version, none kept past its TTL, kept forever: the family defaults. */
  public static final Retention DEFAULT = new Retention(1, 0, Long.MAX_VALUE);

  public Retention {
    if (maxVersions < 1) {
      throw new IllegalArgumentException("maxVersions must be at least 1: " + maxVersions);
    }
    if (minVersions < 0 || minVersions > maxVersions) {
      throw new IllegalArgumentException("need 0 <= minVersions <= maxVersions, got " + minVersions + ", " + maxVersions);
    }
    if (ttlMillis < 1) {
      throw new IllegalArgumentException("ttlMillis must be positive: " + ttlMillis);
    }
  }
}
