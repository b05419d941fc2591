package io.bellows.sstable;

import io.bellows.cell.Cell;
import io.bellows.util.Bytes;

/**
 * One block-index entry: the last key (key bytes and sequence id) of the block it points at, and
 * that block's offset and on-disk size. Immutable (the key array is never modified).
 */
public record IndexEntry(byte[] key, long seqId, long offset, int onDiskSize) {
  /** The last key as a cell with an empty value (for printing and comparisons). */
  public Cell keyAsCell() {
    byte[] out = new byte[Cell.PREFIX + key.length];
    Bytes.putInt(out, 0, key.length);
    Bytes.putInt(out, 4, 0);
    System.arraycopy(key, 0, out, Cell.PREFIX, key.length);
    return new Cell(out, 0, out.length, seqId);
  }
}
