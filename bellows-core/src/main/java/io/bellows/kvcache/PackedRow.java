package io.bellows.kvcache;

import io.bellows.cell.Cell;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;

/**
 * A promoted row's cells packed into one array, as the KV cache holds them: for each cell in order,
 * its sequence id (8 bytes, big-endian) then its serialized bytes (which begin with their own
 * lengths). One array per row instead of a {@link Cell} and an array per cell: a row of ten cells is
 * two heap objects, not twenty-one, for the collector to copy while the row is young and to trace
 * after. A hit unpacks cells that point into the array, so their bytes are not copied.
 */
final class PackedRow {
  private static final int SEQ_ID = 8;

  private PackedRow() {}

  private static int packedLength(List<Cell> cells) {
    int n = 0;
    for (Cell c : cells) {
      n += SEQ_ID + c.length();
    }
    return n;
  }

  static byte[] pack(List<Cell> cells) {
    byte[] out = new byte[packedLength(cells)];
    int pos = 0;
    for (Cell c : cells) {
      Bytes.putLong(out, pos, c.seqId());
      System.arraycopy(c.array(), c.offset(), out, pos + SEQ_ID, c.length());
      pos += SEQ_ID + c.length();
    }
    return out;
  }

  /** The cells of a packed row, in the order packed; they share {@code packed}'s bytes. */
  static List<Cell> unpack(byte[] packed) {
    List<Cell> cells = new ArrayList<>(8);
    for (int pos = 0; pos < packed.length; ) {
      long seqId = Bytes.getLong(packed, pos);
      int start = pos + SEQ_ID;
      int length = Cell.PREFIX + Bytes.getInt(packed, start) + Bytes.getInt(packed, start + 4);
      cells.add(new Cell(packed, start, length, seqId));
      pos = start + length;
    }
    return cells;
  }
}
