package io.bellows.memstore;

import io.bellows.cell.Cell;

/**
 * Where each row of an immutable segment starts: an open-addressing table from the row's hash
 * (the {@link SegmentRowFilter}'s xxHash64) to the position of the row's first cell, so that a get
 * finds its row with a probe or two instead of a binary search of the whole segment (about 17
 * comparisons, each a cache miss, in a segment of 100K cells).
 *
 * <p>Layout: {@code int} slots holding position + 1 (0 = empty), 1.5 slots per row, the slot of a
 * hash being its high half mapped onto the table by multiply-shift, then linear probing. A probe
 * compares the row of the cell at the slot's position with the wanted row, so the answer is exact:
 * the position of the row's first cell, or -1 if the row is not in the segment (or, after a 64-bit
 * hash collision between neighbouring rows, was not recorded: callers then search).
 *
 * <p>Immutable after construction; safe for concurrent lookups once published.
 */
final class RowPositions {
  private final int[] slots;

  /** A table over {@code count} rows: {@code hashes[i]} is the hash of the row starting at {@code positions[i]}. */
  RowPositions(long[] hashes, int[] positions, int count) {
    slots = new int[slotCount(count)];
    for (int i = 0; i < count; i++) {
      int s = slotOf(hashes[i]);
      while (slots[s] != 0) {
        s = s + 1 == slots.length ? 0 : s + 1;
      }
      slots[s] = positions[i] + 1;
    }
  }

  private static int slotCount(int rows) {
    return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(8, rows + (rows >> 1) + 1));
  }

  private int slotOf(long hash) {
    return (int) (((hash >>> 32) * slots.length) >>> 32);
  }

  /** The position of the first cell of {@code row} in {@code index}, or -1 if not found. */
  int first(byte[] row, long rowHash, ImmutableIndex index) {
    for (int s = slotOf(rowHash); ; s = s + 1 == slots.length ? 0 : s + 1) {
      int p = slots[s] - 1;
      if (p < 0) {
        return -1;
      }
      Cell c = index.get(p);
      if (c.isRow(row)) {
        return p;
      }
    }
  }

  /** Heap bytes: the slot array (16-byte header) plus this object (16). */
  long heapBytes() {
    return heapBytesFor(slots.length);
  }

  /** Heap bytes of a table over {@code rows} rows. */
  static long bytesForRows(int rows) {
    return heapBytesFor(slotCount(rows));
  }

  private static long heapBytesFor(int slots) {
    return MemoryLayout.align(16 + 4L * slots) + 16;
  }
}
