package io.bellows.memstore;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import io.bellows.memstore.chunk.ChunkEntryCursor;

/**
 * The index of an immutable segment: cells in {@link CellComparator} order addressed by position,
 * so lookups are binary searches. Implementations: {@link CellArrayIndex} (an array of cell
 * references, the paper's CellArrayMap); the chunk layer can add a serialized index (CellChunkMap)
 * whose {@link #get} materializes a cell view. Immutable and thread-safe.
 */
public interface ImmutableIndex {
  int size();

  /** The cell at position {@code i}, {@code 0 <= i < size()}. */
  Cell get(int i);

  /** Heap or chunk bytes of the index structure itself. */
  long indexBytes();

  SegmentKind kind();

  /** Where each cell lives in chunk memory, in order; null if the cells are not in chunks. */
  default ChunkEntryCursor entries() {
    return null;
  }

  /** The first position in {@code [from, size())} whose cell is &gt;= {@code key}; size() if none. */
  default int ceiling(Cell key, int from) {
    return ceiling(key, from, size());
  }

  /**
   * The first position in {@code [from, to)} whose cell is &gt;= {@code key}; {@code to} if none.
   * The caller knows the cell at {@code to}, if any, is &gt;= {@code key}.
   */
  default int ceiling(Cell key, int from, int to) {
    int lo = from;
    int hi = to;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (CellComparator.INSTANCE.compare(get(mid), key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
