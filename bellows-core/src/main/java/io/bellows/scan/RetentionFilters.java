package io.bellows.scan;

import io.bellows.cell.Cell;

/**
 * Creates the {@link RetentionFilter} of a rewrite (flush, in-memory compaction, minor or major
 * compaction). Every rewrite uses the same rules, built on {@link VersionTracker} so that what a
 * rewrite drops and what a reader hides can never disagree.
 *
 * <p>Guarantee: for FLUSH and MINOR, a rewrite of any part of a store's data never changes what a
 * reader with read point &gt;= {@code smallestReadPoint} and time &gt;= {@code now} sees. MAJOR (the
 * input is every file of the store) additionally removes tombstones; see docs/design/scan.md.
 */
public final class RetentionFilters {
  private RetentionFilters() {}

  public static RetentionFilter create(
      Retention retention, RetentionFilter.Mode mode, long smallestReadPoint, long now) {
    return new VersionRetentionFilter(new VersionTracker(retention, smallestReadPoint, now), mode == RetentionFilter.Mode.MAJOR);
  }

  /** The filter; stateful (one per rewrite), not thread-safe. */
  private static final class VersionRetentionFilter implements RetentionFilter {
    private final VersionTracker tracker;
    private final boolean major;

    VersionRetentionFilter(VersionTracker tracker, boolean major) {
      this.tracker = tracker;
      this.major = major;
    }

    @Override
    public boolean keep(Cell cell) {
      return keep(tracker.classify(cell));
    }

    @Override
    public boolean keep(Cell cell, int relationToPrevious) {
      return keep(tracker.classify(cell, relationToPrevious));
    }

    private boolean keep(VersionTracker.Verdict verdict) {
      switch (verdict) {
        case UNSEEN:
          // Some open reader may not see it yet, or see it without what it masks: keep, ignore.
          return true;
        case MARKER:
          // Only a major compaction sees all older data a tombstone could mask in files.
          return !major;
        case MASKED:
        case OVERWRITTEN:
        case BEYOND_MAX_VERSIONS:
        case EXPIRED:
          return false;
        case DELETED:
          // The put keeps its version slot while its DELETE marker exists; both go in a major.
          return !major;
        case VISIBLE:
          return true;
        default:
          throw new AssertionError();
      }
    }
  }
}
