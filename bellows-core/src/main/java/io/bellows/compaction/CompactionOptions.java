package io.bellows.compaction;

/**
 * Settings of minor-compaction selection, resolved once from the engine's
 * {@code bellows.compaction.*} and {@code bellows.store.blocking.files} settings. Immutable.
 *
 * @param minFiles fewest files a minor compaction merges (at least 2)
 * @param maxFiles most files a minor compaction merges (at least {@code minFiles})
 * @param ratio a file joins a window only if it is at most this ratio times the sum of the others
 * @param blockingFiles the file count from which writes to a store block and the policy picks the
 *     cheapest window even if none is within the ratio
 */
public record CompactionOptions(int minFiles, int maxFiles, double ratio, int blockingFiles) {
  public CompactionOptions {
    if (minFiles < 2 || maxFiles < minFiles) {
      throw new IllegalArgumentException("need 2 <= minFiles <= maxFiles, got " + minFiles + ", " + maxFiles);
    }
    if (!(ratio > 0)) {
      throw new IllegalArgumentException("ratio must be positive, got " + ratio);
    }
  }
}
