package io.bellows.compaction;

import java.util.List;

/**
 * The files a minor compaction should merge (a contiguous run of the store's files, oldest first)
 * and why they were chosen; empty when nothing should be compacted. Immutable.
 */
public record CompactionSelection(List<CompactionCandidate> files, Reason reason) {
  /** Why a selection was made. */
  public enum Reason {
    /** Nothing to compact. */
    NONE,
    /** The best window whose file sizes are within the ratio of each other. */
    RATIO,
    /** No window met the ratio, but the store has so many files that writes block. */
    BLOCKING
  }

  public static final CompactionSelection EMPTY = new CompactionSelection(List.of(), Reason.NONE);

  public CompactionSelection {
    files = List.copyOf(files);
  }

  public boolean isEmpty() {
    return files.isEmpty();
  }

  public long totalBytes() {
    long sum = 0;
    for (CompactionCandidate f : files) {
      sum += f.sizeBytes();
    }
    return sum;
  }
}
