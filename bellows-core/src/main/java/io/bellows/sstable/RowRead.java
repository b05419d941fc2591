package io.bellows.sstable;

import io.bellows.cell.Cell;
import java.util.List;

/**
 * What a point read of one row found in one sorted file: the row's cells (empty if none), the data
 * block the row starts in (with its cache entry, if it went through the block cache), the offset of
 * the row's first entry in that block, and whether the row ended inside the block (a row that runs
 * into the next block is never promoted to the KV cache: its cells come from more than one block).
 */
public record RowRead(List<Cell> cells, Block block, int rowStart, boolean endedInBlock) {
  /** The file holds nothing at or after the row. */
  public static final RowRead ABSENT = new RowRead(List.of(), null, -1, false);
}
