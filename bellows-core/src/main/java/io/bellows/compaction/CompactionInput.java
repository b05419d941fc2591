package io.bellows.compaction;

import io.bellows.scan.CellScanner;

/**
 * A sorted file as a {@link CompactionJob} sees it: its identity and size for the policy, its cells
 * for the merge, and a reference that keeps its bytes readable while the job reads them (a commit
 * of another change to the store's files may drop the file meanwhile).
 */
public interface CompactionInput {
  /** The file's number, unique within its store. */
  long id();

  /** The file's length in bytes. */
  long size();

  /** How many cells the file holds (sizes the output's Bloom filter and counts dropped cells). */
  long cellCount();

  /** Keeps the file's bytes readable until {@link #release}, whatever is committed meanwhile. */
  void retain();

  /** Gives back a {@link #retain}. */
  void release();

  /** The file's cells in key order, for a merge: read past the block cache, which it must not flood. */
  CellScanner compactionScanner();
}
