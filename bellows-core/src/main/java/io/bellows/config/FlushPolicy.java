package io.bellows.config;

/**
 * Which stores of a region a flush writes when one store's memory store reaches the flush size.
 */
public enum FlushPolicy {
  /**
   * Only the stores at or over the flush size (or blocked): a family written little keeps its
   * data in memory and flushes it in files of the full flush size, not in slivers.
   */
  STORES,
  /**
   * Every store of the region with data, at one sequence-id boundary (HBase's flush-all policy):
   * fewer, larger WAL files can go sooner, at the cost of small files for small families.
   */
  REGION
}
