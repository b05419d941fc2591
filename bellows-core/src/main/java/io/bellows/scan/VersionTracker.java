package io.bellows.scan;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;

/**
 * The one copy of Bellows' version, delete and TTL semantics (docs/design/scan.md, "What a reader
 * sees"). It is fed cells of one store in {@link io.bellows.cell.CellComparator} order and says, for
 * each, what it is to a reader at {@code readPoint}: a marker, a masked or overwritten put, a version
 * beyond the family's VERSIONS, an expired or deleted version, or a visible version with its rank.
 *
 * <p>Streaming works because of the cell order: within a column, cells come newest timestamp first
 * and, at one timestamp, tombstones (type codes 14, 12, 8) before puts (4). So every marker that can
 * mask a put (marker timestamp &gt;= put timestamp) is seen before that put. DELETE_FAMILY markers
 * have the empty qualifier, so they come first in their row, before every other column; callers that
 * skip cells must still feed every cell of a row's empty-qualifier group (see {@link StoreScanner}).
 *
 * <p>The caller may skip cells (seek): state is reset by the tracker itself when a fed cell starts a
 * new row (all state) or a new column (column state). Not thread-safe; one tracker per scan or
 * rewrite.
 */
final class VersionTracker {
  /** What a cell is to a reader at the tracker's read point. */
  enum Verdict {
    /** Sequence id above the read point: not seen, takes no part in any decision. */
    UNSEEN,
    /** A tombstone (never returned to users). */
    MARKER,
    /** A put masked by a DELETE_FAMILY or DELETE_COLUMN marker with timestamp &gt;= its own. */
    MASKED,
    /** A put with the timestamp of an already counted version and a lower sequence id. */
    OVERWRITTEN,
    /** A put whose version rank is &gt;= VERSIONS; so is every later put of the column. */
    BEYOND_MAX_VERSIONS,
    /** A counted version that expired by TTL and whose rank is &gt;= MIN_VERSIONS; so is every later one. */
    EXPIRED,
    /** A counted version removed by a DELETE (version) marker of its timestamp; it keeps its slot. */
    DELETED,
    /** A counted, live version. */
    VISIBLE
  }

  private final long readPoint;
  private final int maxVersions;
  private final int minVersions;
  /** Timestamps strictly below this are expired. */
  private final long expiredBefore;

  private Cell last;
  // row state
  private boolean hasFamilyDelete;
  private long familyDeleteTs;
  // column state
  private boolean hasColumnDelete;
  private long columnDeleteTs;
  private boolean hasVersionDelete;
  private long versionDeleteTs;
  private int counted;
  private long lastCountedTs;
  private int lastRank = -1;

  VersionTracker(Retention retention, long readPoint, long now) {
    this.readPoint = readPoint;
    this.maxVersions = retention.maxVersions();
    this.minVersions = retention.minVersions();
    this.expiredBefore = expiredBefore(now, retention.ttlMillis());
  }

  /** The TTL threshold: a timestamp below it is expired. Saturating, so "forever" never expires. */
  static long expiredBefore(long now, long ttlMillis) {
    if (ttlMillis == Long.MAX_VALUE) {
      return Long.MIN_VALUE;
    }
    long t = now - ttlMillis;
    // Overflow only if now is hugely negative; then nothing is expired.
    return ((now ^ ttlMillis) & (now ^ t)) < 0 ? Long.MIN_VALUE : t;
  }

  /** Rank (0 = newest) of the version of the last put classified as counted. */
  int lastRank() {
    return lastRank;
  }

  Verdict classify(Cell c) {
    return classify(c, last == null ? Cell.OTHER_ROW : c.columnRelation(last));
  }

  /**
   * {@link #classify(Cell)} given {@code relation}, where {@code c} stands to the cell fed before it
   * ({@link Cell#columnRelation}; {@link Cell#OTHER_ROW} for the first), for callers that know it.
   */
  Verdict classify(Cell c, int relation) {
    if (relation == Cell.OTHER_ROW) {
      hasFamilyDelete = false;
      resetColumn();
    } else if (relation == Cell.SAME_ROW) {
      resetColumn();
    }
    last = c;
    if (c.seqId() > readPoint) {
      return Verdict.UNSEEN;
    }
    long ts = c.timestamp();
    CellType type = c.type();
    switch (type) {
      case DELETE_FAMILY:
        if (!hasFamilyDelete || ts > familyDeleteTs) {
          familyDeleteTs = ts;
          hasFamilyDelete = true;
        }
        return Verdict.MARKER;
      case DELETE_COLUMN:
        if (!hasColumnDelete || ts > columnDeleteTs) {
          columnDeleteTs = ts;
          hasColumnDelete = true;
        }
        return Verdict.MARKER;
      case DELETE:
        // Markers come newest first, so the last one seen is the only one that can match the
        // puts that follow.
        versionDeleteTs = ts;
        hasVersionDelete = true;
        return Verdict.MARKER;
      case PUT:
        break;
      default:
        throw new IllegalArgumentException("not a stored cell type: " + c);
    }
    if ((hasFamilyDelete && familyDeleteTs >= ts) || (hasColumnDelete && columnDeleteTs >= ts)) {
      return Verdict.MASKED;
    }
    if (counted > 0 && ts == lastCountedTs) {
      return Verdict.OVERWRITTEN;
    }
    int rank = counted++;
    lastCountedTs = ts;
    lastRank = rank;
    if (rank >= maxVersions) {
      return Verdict.BEYOND_MAX_VERSIONS;
    }
    if (ts < expiredBefore && rank >= minVersions) {
      return Verdict.EXPIRED;
    }
    if (hasVersionDelete && versionDeleteTs == ts) {
      return Verdict.DELETED;
    }
    return Verdict.VISIBLE;
  }

  private void resetColumn() {
    hasColumnDelete = false;
    hasVersionDelete = false;
    counted = 0;
    lastRank = -1;
  }
}
