package io.bellows.memstore;

import io.bellows.config.ActiveIndexType;
import io.bellows.config.MemStorePolicy;
import io.bellows.config.SegmentIndexType;

/**
 * A memory store's settings, resolved once from its family's settings when the store is opened; the
 * memory store reads nothing else. Immutable.
 *
 * <p>The index kinds and {@code mslab} are requests, as the family gave them; {@link SegmentFactory}
 * turns them, with the allocator's on/off-heap mode, into the forms segments really take.
 *
 * @param policy {@code IN_MEMORY_COMPACTION}: NONE gives the classic memory store, BASIC, EAGER and
 *     ADAPTIVE the Accordion one
 * @param inMemoryFlushFraction {@code IN_MEMORY_FLUSH_FRACTION}, Accordion's A: the active segment is
 *     flushed in memory at this fraction of the flush size
 * @param pipelineMaxSegments {@code PIPELINE_MAX_SEGMENTS}, Accordion's S
 * @param adaptiveThreshold {@code ADAPTIVE_THRESHOLD}, Accordion's R
 * @param activeIndex {@code ACTIVE_INDEX}: index of the active segment
 * @param segmentIndex {@code SEGMENT_INDEX}: index of flat (immutable) segments
 * @param mslab {@code MSLAB}: copy cell bytes into chunks
 * @param rowFilter {@code SEGMENT_ROW_FILTER}: a row Bloom filter per flat segment
 */
public record MemStoreOptions(
    MemStorePolicy policy,
    double inMemoryFlushFraction,
    int pipelineMaxSegments,
    double adaptiveThreshold,
    ActiveIndexType activeIndex,
    SegmentIndexType segmentIndex,
    boolean mslab,
    boolean rowFilter) {
  public MemStoreOptions {
    if (policy == null || activeIndex == null || segmentIndex == null) {
      throw new NullPointerException("policy and index kinds are required");
    }
    if (!(inMemoryFlushFraction > 0 && inMemoryFlushFraction < 1)) {
      throw new IllegalArgumentException("in-memory flush fraction must be in (0, 1): " + inMemoryFlushFraction);
    }
    if (pipelineMaxSegments < 1) {
      throw new IllegalArgumentException("pipeline max segments must be at least 1: " + pipelineMaxSegments);
    }
    if (!(adaptiveThreshold >= 0 && adaptiveThreshold <= 1)) {
      throw new IllegalArgumentException("adaptive threshold must be in [0, 1]: " + adaptiveThreshold);
    }
  }
}
