package io.bellows.cluster;

/**
 * A position in a group's log: the entry's index and the term of the leader that wrote it. Raft
 * identifies an entry by both (two leaders may each have written an entry at one index; only one
 * is committed).
 */
public record LogPosition(long term, long index) {
  public LogPosition {
    if (term < 0 || index < 0) {
      throw new IllegalArgumentException("a log position has a term and an index >= 0: " + term + ", " + index);
    }
  }

  @Override
  public String toString() {
    return "(t:" + term + ", i:" + index + ")";
  }
}
