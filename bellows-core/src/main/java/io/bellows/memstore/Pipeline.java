package io.bellows.memstore;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One version of the compaction pipeline: the immutable (or sealing) segments between the active
 * segment and the snapshot, newest first. Immutable: every structural change (push, flatten, merge,
 * compact, snapshot) builds a new pipeline with a higher version, and the memory store installs it
 * with compare-and-set, so readers use whatever version they read without locks.
 */
final class Pipeline {
  final long version;
  /** Newest first; unmodifiable. */
  final List<Segment> segments;

  Pipeline(long version, List<Segment> segments) {
    this.version = version;
    this.segments = Collections.unmodifiableList(segments);
  }

  static Pipeline empty() {
    return new Pipeline(0, List.of());
  }

  /** A new version with {@code s} as the newest segment. */
  Pipeline push(Segment s) {
    List<Segment> next = new ArrayList<>(segments.size() + 1);
    next.add(s);
    next.addAll(segments);
    return new Pipeline(version + 1, next);
  }

  /** A new, empty version (the segments moved to the snapshot). */
  Pipeline cleared() {
    return new Pipeline(version + 1, List.of());
  }

  /**
   * Where {@code run} sits in this pipeline as a contiguous run of the very same segment objects,
   * or -1 if it does not (a disk flush took them, or another change replaced them).
   */
  int indexOfRun(List<Segment> run) {
    if (run.isEmpty()) {
      return -1;
    }
    int start = -1;
    for (int i = 0; i < segments.size(); i++) {
      if (segments.get(i) == run.get(0)) {
        start = i;
        break;
      }
    }
    if (start < 0 || start + run.size() > segments.size()) {
      return -1;
    }
    for (int j = 0; j < run.size(); j++) {
      if (segments.get(start + j) != run.get(j)) {
        return -1;
      }
    }
    return start;
  }

  /**
   * A new version in which the contiguous run is replaced by {@code replacement}, or null if the
   * run is no longer there (validation by segment identity).
   */
  Pipeline replace(List<Segment> run, Segment replacement) {
    int at = indexOfRun(run);
    if (at < 0) {
      return null;
    }
    List<Segment> next = new ArrayList<>(segments.size() - run.size() + 1);
    next.addAll(segments.subList(0, at));
    next.add(replacement);
    next.addAll(segments.subList(at + run.size(), segments.size()));
    return new Pipeline(version + 1, next);
  }

  /** The longest run of stable segments ending at the oldest segment (what compactions may touch). */
  List<Segment> stableTail() {
    int k = segments.size();
    while (k > 0 && segments.get(k - 1).isStable()) {
      k--;
    }
    return segments.subList(k, segments.size());
  }
}
