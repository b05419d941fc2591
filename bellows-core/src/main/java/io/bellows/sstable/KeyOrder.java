package io.bellows.sstable;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;

/**
 * The cell order applied to keys as sorted files store them: key bytes (the {@link Cell} layout from
 * rowLength through type) plus the sequence id. Equivalent to {@link CellComparator}. Stateless.
 */
final class KeyOrder {
  private KeyOrder() {}

  static int compare(byte[] a, int aOff, int aLen, long aSeq, byte[] b, int bOff, int bLen, long bSeq) {
    int c = CellComparator.compareKeyBytes(a, aOff, aLen, b, bOff, bLen);
    return c != 0 ? c : Long.compare(bSeq, aSeq);
  }

  /** Compares a stored key with a cell. */
  static int compare(byte[] a, int aOff, int aLen, long aSeq, Cell c) {
    return compare(a, aOff, aLen, aSeq, c.array(), c.keyOffset(), c.keyLength(), c.seqId());
  }
}
