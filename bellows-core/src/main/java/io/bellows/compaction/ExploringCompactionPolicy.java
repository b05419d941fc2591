package io.bellows.compaction;

import java.util.List;

/**
 * The {@link CompactionPolicy} of every store today: HBase's exploring selection. Pure: no I/O, no
 * state beyond its settings; thread-safe.
 *
 * <p>It explores every contiguous window of {@code minFiles..maxFiles} files of the store (oldest
 * first; compacting a contiguous run keeps the files' sequence-id ranges ordered). A window
 * qualifies if every file in it is at most {@code ratio} times the sum of the other files of the
 * window, so that a compaction never rewrites one large file for the sake of a few small ones. Of the
 * qualifying windows it prefers the one with the most files (most files removed per compaction),
 * then the smallest total size (least I/O), then the oldest. If none qualifies but the store has at
 * least {@code blockingFiles} files, it picks the {@code minFiles} contiguous files of smallest total
 * size, to relieve blocked writes at the least cost.
 */
public final class ExploringCompactionPolicy implements CompactionPolicy {
  private final int minFiles;
  private final int maxFiles;
  private final double ratio;
  private final int blockingFiles;

  public ExploringCompactionPolicy(int minFiles, int maxFiles, double ratio, int blockingFiles) {
    this(new CompactionOptions(minFiles, maxFiles, ratio, blockingFiles));
  }

  /** The policy with a store's resolved compaction settings. */
  public ExploringCompactionPolicy(CompactionOptions options) {
    this.minFiles = options.minFiles();
    this.maxFiles = options.maxFiles();
    this.ratio = options.ratio();
    this.blockingFiles = options.blockingFiles();
  }

  @Override
  public CompactionSelection select(List<CompactionCandidate> filesOldestFirst) {
    List<CompactionCandidate> files = filesOldestFirst;
    int n = files.size();
    int bestStart = -1;
    int bestCount = 0;
    long bestTotal = 0;
    for (int count = Math.min(maxFiles, n); count >= minFiles && bestStart < 0; count--) {
      // Larger windows are tried first; the first size with a qualifying window wins.
      for (int start = 0; start + count <= n; start++) {
        long total = total(files, start, count);
        if ((bestStart < 0 || total < bestTotal) && withinRatio(files, start, count, total)) {
          bestStart = start;
          bestCount = count;
          bestTotal = total;
        }
      }
    }
    if (bestStart >= 0) {
      return new CompactionSelection(files.subList(bestStart, bestStart + bestCount), CompactionSelection.Reason.RATIO);
    }
    if (n >= blockingFiles && n >= 2) {
      int count = Math.min(minFiles, n);
      for (int start = 0; start + count <= n; start++) {
        long total = total(files, start, count);
        if (bestStart < 0 || total < bestTotal) {
          bestStart = start;
          bestTotal = total;
        }
      }
      return new CompactionSelection(files.subList(bestStart, bestStart + count), CompactionSelection.Reason.BLOCKING);
    }
    return CompactionSelection.EMPTY;
  }

  private boolean withinRatio(List<CompactionCandidate> files, int start, int count, long total) {
    for (int i = start; i < start + count; i++) {
      long size = files.get(i).sizeBytes();
      if (size > ratio * (total - size)) {
        return false;
      }
    }
    return true;
  }

  private static long total(List<CompactionCandidate> files, int start, int count) {
    long sum = 0;
    for (int i = start; i < start + count; i++) {
      sum += files.get(i).sizeBytes();
    }
    return sum;
  }
}
