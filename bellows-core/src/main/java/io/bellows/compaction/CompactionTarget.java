package io.bellows.compaction;

import io.bellows.scan.CellScanner;
import io.bellows.scan.RetentionFilter;
import io.bellows.util.CorruptionException;
import io.bellows.util.DamagedFileException;
import java.util.List;

/**
 * The store's side of a compaction: which files it has, how the merged cells become a file of it,
 * how the change is committed and what a damaged input means. A {@link CompactionJob} decides and
 * merges; the target does the store's I/O and keeps its invariants (one manifest write per change,
 * inputs deleted after their last reader).
 *
 * @param <F> the store's file type
 */
public interface CompactionTarget<F extends CompactionInput> {
  /** The store's live files, oldest first. */
  List<F> liveFiles();

  /** A damaged file a compaction met earlier (the store's compactions are stopped), or null. */
  DamagedFileException knownDamage();

  /**
   * Writes {@code merged} through the retention rules of {@code mode} into a new file of the store,
   * not yet live. Returns null if no cell remained.
   *
   * @param expectedCells the inputs' cell count, an upper bound of the output's
   * @throws CorruptionException if an input turns out to be damaged
   */
  F write(CellScanner merged, RetentionFilter.Mode mode, long expectedCells, boolean major);

  /** Makes {@code written} (null for none) live in place of {@code inputs}, in one durable step. */
  void commit(F written, List<F> inputs);

  /**
   * What the merge's corruption means for the store: which input is damaged (the inputs are still
   * retained, so they can be checked), as the exception to throw.
   */
  RuntimeException damaged(List<F> inputs, CorruptionException e);
}
