package io.bellows.scan;

import io.bellows.cell.Cell;

/**
 * Decides which cells of one store survive when data is rewritten: a disk flush, an in-memory
 * compaction, a minor or a major disk compaction. Fed every cell of the input exactly once, in
 * {@link io.bellows.cell.CellComparator} order; stateful, so one instance serves one rewrite.
 *
 * <p>The same rules serve every rewrite (one copy of the version, delete and TTL logic): see the
 * implementation for what each {@link Mode} may drop. A dropped cell must be invisible to every
 * reader that can still open the rewritten data, which is why the filter is given the smallest
 * read point of the store's open readers.
 */
public interface RetentionFilter {
  /** What kind of rewrite this is; it bounds what may be dropped. */
  enum Mode {
    /** Disk flush or in-memory compaction of memory segments: sees only part of the store's data. */
    FLUSH,
    /** Minor disk compaction: sees some of the store's files. */
    MINOR,
    /** Major disk compaction: sees all of the store's files; may drop tombstones. */
    MAJOR
  }

  /** Whether {@code cell} is kept. */
  boolean keep(Cell cell);

  /**
   * {@link #keep(Cell)} for a caller that already knows where the cell stands to the cell fed before
   * it ({@link Cell#columnRelation}, {@link Cell#OTHER_ROW} for the first), so that the filter need
   * not compare them again.
   */
  default boolean keep(Cell cell, int relationToPrevious) {
    return keep(cell);
  }
}
