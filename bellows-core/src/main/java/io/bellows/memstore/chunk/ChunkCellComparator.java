package io.bellows.memstore.chunk;

import io.bellows.cell.Cell;
import io.bellows.cell.CellComparator;
import java.nio.ByteBuffer;

/**
 * {@link CellComparator}'s order for cells serialized in {@link ByteBuffer}s (heap or direct), so
 * that indexes over chunk memory compare keys in place without building {@link Cell} objects. Two
 * heap buffers take the array fast path of {@code CellComparator}; otherwise bytes are compared
 * eight at a time as big-endian longs (unsigned comparison of big-endian words is lexicographic
 * byte order). Stateless and thread-safe; the buffers are read with absolute access only.
 */
public final class ChunkCellComparator {
  private ChunkCellComparator() {}

  /** Full order: key, then sequence id descending. */
  public static int compare(ByteBuffer a, int aCell, long aSeq, ByteBuffer b, int bCell, long bSeq) {
    int c = compareKeys(a, aCell, b, bCell);
    return c != 0 ? c : Long.compare(bSeq, aSeq);
  }

  /** Compares the keys (everything but the sequence id) of cells starting at the given offsets. */
  public static int compareKeys(ByteBuffer a, int aCell, ByteBuffer b, int bCell) {
    if (a.hasArray() && b.hasArray()) {
      return CellComparator.compareKeys(a.array(), a.arrayOffset() + aCell, b.array(), b.arrayOffset() + bCell);
    }
    int aKeyLen = a.getInt(aCell);
    int bKeyLen = b.getInt(bCell);
    int aKey = aCell + Cell.PREFIX;
    int bKey = bCell + Cell.PREFIX;
    int aRowLen = a.getShort(aKey) & 0xFFFF;
    int bRowLen = b.getShort(bKey) & 0xFFFF;
    int c = compareBytes(a, aKey + 2, aRowLen, b, bKey + 2, bRowLen);
    if (c != 0) {
      return c;
    }
    int aFamLenOff = aKey + 2 + aRowLen;
    int bFamLenOff = bKey + 2 + bRowLen;
    int aFamLen = a.get(aFamLenOff);
    int bFamLen = b.get(bFamLenOff);
    c = compareBytes(a, aFamLenOff + 1, aFamLen, b, bFamLenOff + 1, bFamLen);
    if (c != 0) {
      return c;
    }
    int aQualOff = aFamLenOff + 1 + aFamLen;
    int bQualOff = bFamLenOff + 1 + bFamLen;
    int aQualLen = aKey + aKeyLen - 9 - aQualOff;
    int bQualLen = bKey + bKeyLen - 9 - bQualOff;
    c = compareBytes(a, aQualOff, aQualLen, b, bQualOff, bQualLen);
    if (c != 0) {
      return c;
    }
    c = Long.compare(b.getLong(bKey + bKeyLen - 9), a.getLong(aKey + aKeyLen - 9));
    if (c != 0) {
      return c;
    }
    return Integer.compare(b.get(bKey + bKeyLen - 1) & 0xFF, a.get(aKey + aKeyLen - 1) & 0xFF);
  }

  /** Lexicographic comparison of unsigned bytes; both buffers must be big-endian. */
  static int compareBytes(ByteBuffer a, int aOff, int aLen, ByteBuffer b, int bOff, int bLen) {
    int n = Math.min(aLen, bLen);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long x = a.getLong(aOff + i);
      long y = b.getLong(bOff + i);
      if (x != y) {
        return Long.compareUnsigned(x, y);
      }
    }
    for (; i < n; i++) {
      int x = a.get(aOff + i) & 0xFF;
      int y = b.get(bOff + i) & 0xFF;
      if (x != y) {
        return x - y;
      }
    }
    return aLen - bLen;
  }
}
