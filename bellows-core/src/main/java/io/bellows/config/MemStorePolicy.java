package io.bellows.config;

/**
 * The memory store of a column family. NONE is the classic single skiplist; the others are the
 * Accordion compacting memory store with its in-memory compaction policies.
 */
public enum MemStorePolicy {
  /** One concurrent skiplist, moved to a snapshot on disk flush. */
  NONE,
  /** Accordion: flatten on in-memory flush; merge indices when the pipeline is long; never copy data. */
  BASIC,
  /** Accordion: compact each new segment with the pipeline, dropping redundant versions. */
  EAGER,
  /** Accordion: merge or compact, decided from the measured redundancy of the data. */
  ADAPTIVE
}
