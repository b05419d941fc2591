package io.bellows.cluster.region;

import io.bellows.cluster.LogPosition;
import java.util.Map;
import java.util.TreeMap;

/**
 * The log positions an applier was handed since it opened, kept small: the index where each term's
 * entries begin, and the gaps between handed indexes (Ratis does not hand over its own entries: a
 * new leader's first entry, configuration changes). So the position of any handed index, with its
 * term, can be named exactly, and an index in a gap rounds down to the handed entry before it: a
 * checkpoint must name an entry with its own term, for Raft checks a log's continuity by both.
 * Thread-safe.
 */
final class AppliedPositions {
  /** First handed index of each term → the term. */
  private final TreeMap<Long, Long> termStarts = new TreeMap<>();
  /** First handed index after a gap → the last handed index before it. */
  private final TreeMap<Long, Long> gaps = new TreeMap<>();
  private long last = -1;
  private long lastTerm = -1;

  synchronized void handed(LogPosition at) {
    if (at.index() <= last) {
      throw new IllegalStateException("log position " + at + " handed after index " + last);
    }
    if (last >= 0 && at.index() > last + 1) {
      gaps.put(at.index(), last);
    }
    if (at.term() != lastTerm) {
      termStarts.put(at.index(), at.term());
    }
    last = at.index();
    lastTerm = at.term();
  }

  /** The last index handed, or -1 if none since the applier opened. */
  synchronized long last() {
    return last;
  }

  /**
   * The position of the last handed entry at or below {@code index}, or null if none was handed
   * since the applier opened. Forgets what only positions below the answer needed: the caller asks
   * for non-decreasing indexes (a region's durable position only grows).
   */
  synchronized LogPosition atOrBelow(long index) {
    if (last < 0 || index < termStarts.firstKey()) {
      return null;
    }
    long at = Math.min(index, last);
    Map.Entry<Long, Long> gap = gaps.higherEntry(at);
    if (gap != null && gap.getValue() < at) {
      at = gap.getValue(); // `at` lies in the gap: the handed entry before it
    }
    Map.Entry<Long, Long> term = termStarts.floorEntry(at);
    termStarts.headMap(term.getKey(), false).clear();
    gaps.headMap(at, true).clear();
    return new LogPosition(term.getValue(), at);
  }
}
