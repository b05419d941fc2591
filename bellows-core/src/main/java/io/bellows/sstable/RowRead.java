package io.bellows.sstable;

import io.bellows.cache.CachedBlock;
import io.bellows.cell.Cell;
import java.util.List;

/**
 * What a point read of one row found in one sorted file: the row's cells (empty if none); the data
 * block the row starts in, as the block cache holds it ({@code cached}, null if the read did not go
 * through a cache; without a heap payload when read where the off-heap cache holds it), whether it
 * was found there, and where it lies in the file; the offset of the row's first entry in that
 * block; and whether the row ended inside the block (a row that runs into the next block is never
 * promoted to the KV cache: its cells come from more than one block).
 */
public record RowRead(List<Cell> cells, CachedBlock cached, boolean cacheHit, long blockOffset, int blockSize,
    int rowStart, boolean endedInBlock) {
  /** The file holds nothing at or after the row. */
  public static final RowRead ABSENT = new RowRead(List.of(), null, false, -1, 0, -1, false);
}
