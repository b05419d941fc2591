package io.bellows.record;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.util.Bytes;
import io.bellows.util.VarInt;
import java.util.ArrayList;
import java.util.List;

/**
 * The bytes of a {@link WriteRecord}, for any log that carries records: the layout of the WAL's
 * record payload (version 3 and later, docs/FORMAT.md "Payload"), byte for byte, so a record read
 * from the WAL can be passed on unchanged. Framing (lengths, checksums) is the carrying log's.
 *
 * <pre>
 * record := region id int32 | seq id int64 | cell count int32 | cell*
 * cell   := flags u8 | [row: varint length, bytes] | [family: u8 length, bytes]
 *           | qualifier: varint length, bytes | [timestamp int64] | value: varint length, bytes
 * </pre>
 *
 * A cell's flags carry its type code (low four bits; the high bit is reserved) and say which of row,
 * family and timestamp repeat the previous cell's ({@link #SAME_ROW}, {@link #SAME_FAMILY}, {@link
 * #SAME_TIMESTAMP}); a repeated part is not written. Fixed-width integers are big-endian; varints as
 * {@link VarInt}. Stateless and thread-safe.
 */
public final class WriteRecordCodec {
  private WriteRecordCodec() {}

  /** Region id, seq id and cell count: a record's bytes are never shorter. */
  public static final int MIN_LENGTH = 4 + 8 + 4;
  /** Longest encoding (and longest cells, whole) of one record: a frame of up to 12 bytes still fits an int. */
  public static final int MAX_LENGTH = Integer.MAX_VALUE - 12;
  /** Flags: the cell's row is the previous cell's (not written). */
  public static final int SAME_ROW = 0x10;
  /** Flags: the cell's family is the previous cell's (not written). */
  public static final int SAME_FAMILY = 0x20;
  /** Flags: the cell's timestamp is the previous cell's (not written). */
  public static final int SAME_TIMESTAMP = 0x40;
  /** Flags: the bits of the cell type code. */
  public static final int TYPE_BITS = 0x0F;
  private static final int REPEATS = SAME_ROW | SAME_FAMILY | SAME_TIMESTAMP;
  /** Smallest encoded cell: flags, qualifier length and value length, each one byte. */
  private static final int MIN_CELL = 3;

  /**
   * The record's bytes.
   *
   * @throws IllegalArgumentException if the record is too large ({@link #MAX_LENGTH}) or holds a
   *     search key's cell type
   */
  public static byte[] encode(WriteRecord record) {
    byte[] out = new byte[encodedLength(record)];
    encode(record, out, 0);
    return out;
  }

  /** The length of {@link #encode}'s result; throws as it does. */
  public static int encodedLength(WriteRecord record) {
    List<Cell> cells = record.cells();
    long length = MIN_LENGTH;
    long whole = 0;
    Cell prev = null;
    for (int i = 0; i < cells.size(); i++) {
      Cell c = cells.get(i);
      storedTypeCode(c);
      length += cellLength(prev, c);
      whole += c.length();
      prev = c;
    }
    // Both bounds: a decoder rebuilds the cells whole, which may take more bytes than the encoding.
    if (whole > MAX_LENGTH || length > MAX_LENGTH) {
      throw new IllegalArgumentException("record of " + whole + " bytes of cells is too large to encode");
    }
    return (int) length;
  }

  /** Writes the record's bytes at {@code out[offset..]}, which has room for them; returns where they end. */
  public static int encode(WriteRecord record, byte[] out, int offset) {
    List<Cell> cells = record.cells();
    int p = offset;
    Bytes.putInt(out, p, record.regionId());
    Bytes.putLong(out, p + 4, record.seqId());
    Bytes.putInt(out, p + 12, cells.size());
    p += MIN_LENGTH;
    Cell prev = null;
    for (int i = 0; i < cells.size(); i++) {
      Cell c = cells.get(i);
      byte[] a = c.array();
      int f = flags(prev, c);
      out[p++] = (byte) f;
      if ((f & SAME_ROW) == 0) {
        p = VarInt.put(out, p, c.rowLength());
        System.arraycopy(a, c.rowOffset(), out, p, c.rowLength());
        p += c.rowLength();
      }
      if ((f & SAME_FAMILY) == 0) {
        out[p++] = (byte) c.familyLength();
        System.arraycopy(a, c.familyOffset(), out, p, c.familyLength());
        p += c.familyLength();
      }
      p = VarInt.put(out, p, c.qualifierLength());
      System.arraycopy(a, c.qualifierOffset(), out, p, c.qualifierLength());
      p += c.qualifierLength();
      if ((f & SAME_TIMESTAMP) == 0) {
        Bytes.putLong(out, p, c.timestamp());
        p += 8;
      }
      p = VarInt.put(out, p, c.valueLength());
      System.arraycopy(a, c.valueOffset(), out, p, c.valueLength());
      p += c.valueLength();
      prev = c;
    }
    return p;
  }

  private static int flags(Cell prev, Cell c) {
    int f = storedTypeCode(c);
    if (prev != null && prev.sameRow(c)) {
      f |= SAME_ROW;
    }
    if (prev != null && prev.sameFamily(c)) {
      f |= SAME_FAMILY;
    }
    if (prev != null && prev.timestamp() == c.timestamp()) {
      f |= SAME_TIMESTAMP;
    }
    return f;
  }

  private static long cellLength(Cell prev, Cell c) {
    int f = flags(prev, c);
    long len = 1L + VarInt.sizeOf(c.qualifierLength()) + c.qualifierLength() + VarInt.sizeOf(c.valueLength())
        + c.valueLength();
    if ((f & SAME_ROW) == 0) {
      len += VarInt.sizeOf(c.rowLength()) + c.rowLength();
    }
    if ((f & SAME_FAMILY) == 0) {
      len += 1 + c.familyLength();
    }
    if ((f & SAME_TIMESTAMP) == 0) {
      len += 8;
    }
    return len;
  }

  /** The cell's type code, which must be one stored on disk (not a search key's). */
  private static int storedTypeCode(Cell c) {
    int code = c.typeCode() & 0xff;
    if (!isStoredType(code)) {
      throw new IllegalArgumentException("cell type code " + code + " is a search key's, not a loggable cell's");
    }
    return code;
  }

  private static boolean isStoredType(int code) {
    return code == CellType.PUT.code() || code == CellType.DELETE.code() || code == CellType.DELETE_COLUMN.code()
        || code == CellType.DELETE_FAMILY.code();
  }

  /** Decodes {@link #encode}'s bytes; see {@link #decode(byte[], int, int)}. */
  public static WriteRecord decode(byte[] b) {
    return decode(b, 0, b.length);
  }

  /**
   * Decodes a record from {@code b[offset..offset+length)}. The cells are laid out whole in one new
   * array and carry the record's sequence id.
   *
   * @throws IllegalArgumentException naming the cell and the part if the bytes are not a record
   */
  public static WriteRecord decode(byte[] b, int offset, int length) {
    return decode(b, offset, length, "record");
  }

  /**
   * As {@link #decode(byte[], int, int)}, naming the bytes {@code container} in its messages (the
   * WAL calls them the record's payload).
   */
  public static WriteRecord decode(byte[] b, int offset, int length, String container) {
    if (length < MIN_LENGTH) {
      throw new IllegalArgumentException("record of " + length + " bytes is shorter than " + MIN_LENGTH);
    }
    int regionId = Bytes.getInt(b, offset);
    long seqId = Bytes.getLong(b, offset + 4);
    int count = Bytes.getInt(b, offset + 12);
    if (count < 0 || count > (length - MIN_LENGTH) / MIN_CELL) {
      throw new IllegalArgumentException("impossible cell count " + count + " for a record of " + length + " bytes");
    }
    // First pass: check every cell and note where its parts are; the second lays the cells out.
    int[] parts = new int[count * PARTS];
    long[] timestamps = new long[count];
    Cursor in = new Cursor(b, offset + MIN_LENGTH, offset + length, container);
    int rowOff = 0;
    int rowLen = 0;
    int famOff = 0;
    int famLen = 0;
    long ts = 0;
    long whole = 0;
    for (int i = 0; i < count; i++) {
      in.cell = i;
      int f = in.u8("flags");
      if ((f & ~(TYPE_BITS | REPEATS)) != 0) {
        throw new IllegalArgumentException("cell " + i + ": reserved flag bit set in flags 0x" + Integer.toHexString(f));
      }
      if (!isStoredType(f & TYPE_BITS)) {
        throw new IllegalArgumentException("cell " + i + ": unknown cell type code " + (f & TYPE_BITS));
      }
      if (i == 0 && (f & REPEATS) != 0) {
        throw new IllegalArgumentException("cell 0 repeats a part of a cell before it");
      }
      if ((f & SAME_ROW) == 0) {
        rowLen = in.varint("row", Cell.MAX_ROW_LENGTH);
        rowOff = in.skip(rowLen, "row");
      }
      if ((f & SAME_FAMILY) == 0) {
        famLen = in.u8("family length");
        if (famLen > Cell.MAX_FAMILY_LENGTH) {
          throw new IllegalArgumentException("cell " + i + ": family length " + famLen + " over " + Cell.MAX_FAMILY_LENGTH);
        }
        famOff = in.skip(famLen, "family");
      }
      int qualLen = in.varint("qualifier", Integer.MAX_VALUE);
      int qualOff = in.skip(qualLen, "qualifier");
      if ((f & SAME_TIMESTAMP) == 0) {
        ts = Bytes.getLong(b, in.skip(8, "timestamp"));
      }
      int valueLen = in.varint("value", Integer.MAX_VALUE);
      int valueOff = in.skip(valueLen, "value");
      whole += (long) Cell.PREFIX + Cell.KEY_INFRASTRUCTURE + rowLen + famLen + qualLen + valueLen;
      if (whole > MAX_LENGTH) {
        throw new IllegalArgumentException("cells of over " + MAX_LENGTH + " bytes in one record");
      }
      int k = i * PARTS;
      parts[k] = rowOff;
      parts[k + 1] = rowLen;
      parts[k + 2] = famOff;
      parts[k + 3] = famLen;
      parts[k + 4] = qualOff;
      parts[k + 5] = qualLen;
      parts[k + 6] = valueOff;
      parts[k + 7] = valueLen;
      parts[k + 8] = f & TYPE_BITS;
      timestamps[i] = ts;
    }
    if (in.pos != in.end) {
      throw new IllegalArgumentException((in.end - in.pos) + " stray bytes after the last cell");
    }
    byte[] out = new byte[(int) whole];
    List<Cell> cells = new ArrayList<>(count);
    int p = 0;
    for (int i = 0; i < count; i++) {
      int k = i * PARTS;
      int cellLen = Cells.write(out, p, b, parts[k], parts[k + 1], parts[k + 2], parts[k + 3], parts[k + 4],
          parts[k + 5], timestamps[i], (byte) parts[k + 8], parts[k + 6], parts[k + 7]);
      cells.add(new Cell(out, p, cellLen, seqId));
      p += cellLen;
    }
    return new WriteRecord(regionId, seqId, cells);
  }

  /** Ints noted per cell by the first pass of {@link #decode}: four (offset, length) pairs and the type. */
  private static final int PARTS = 9;

  /** Reads cells with bounds checks that name the cell and the part. */
  private static final class Cursor {
    final byte[] b;
    final int end;
    int pos;
    int cell;

    final String container;

    Cursor(byte[] b, int pos, int end, String container) {
      this.container = container;
      this.b = b;
      this.pos = pos;
      this.end = end;
    }

    int u8(String what) {
      skip(1, what);
      return b[pos - 1] & 0xff;
    }

    /** Skips {@code n} bytes; returns where they start. */
    int skip(int n, String what) {
      if (n > end - pos) {
        throw new IllegalArgumentException("cell " + cell + ": " + what + " runs past the " + container);
      }
      int at = pos;
      pos += n;
      return at;
    }

    /** A varint length of at most {@code max}. */
    int varint(String what, int max) {
      long v = 0;
      for (int shift = 0; shift < 35; shift += 7) {
        int x = u8(what + " length");
        v |= (long) (x & 0x7F) << shift;
        if ((x & 0x80) == 0) {
          if (v > max) {
            throw new IllegalArgumentException("cell " + cell + ": " + what + " length " + v + " over " + max);
          }
          return (int) v;
        }
      }
      throw new IllegalArgumentException("cell " + cell + ": " + what + " length is not a varint of at most 5 bytes");
    }
  }
}
