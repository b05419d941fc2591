package io.bellows.compaction;

import java.util.List;

/**
 * Chooses which of a store's sorted files a minor compaction merges. A store holds one and asks it
 * whenever a compaction is considered; the store's compaction job then merges what it picked.
 *
 * <p>Implementations are pure (no I/O, no state beyond their settings) and thread-safe: a store
 * asks from flush threads, compaction threads and the region's checks at once. The selection must
 * be a contiguous run of the given files, so that a compaction keeps the files' sequence-id ranges
 * ordered.
 */
public interface CompactionPolicy {
  /** Selects files to compact from the store's files, given oldest first; empty for none. */
  CompactionSelection select(List<CompactionCandidate> filesOldestFirst);

  /** The policy a store uses with the given settings: today {@link ExploringCompactionPolicy}. */
  static CompactionPolicy forStore(CompactionOptions options) {
    return new ExploringCompactionPolicy(options);
  }
}
