package io.bellows.wal;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.record.WriteRecord;
import io.bellows.record.WriteRecordCodec;
import io.bellows.util.Bytes;
import io.bellows.util.VarInt;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * The WAL's on-disk format: file names, the file header, and the record encoding. Stateless; all
 * methods are pure functions of their arguments (thread-safe). See {@code docs/design/wal.md} for
 * the byte tables.
 *
 * <pre>
 * file   := header record*
 * header := magic "BWAL" (4) | version int32 (4) | file number int64 (8)
 *           | fenced length int64 (8; version 4 on) | CRC32C of the bytes before (4)
 * record := payload length int32 (4) | CRC32C of payload (4) | CRC32C of the 8 bytes before (4) | payload
 * payload:= region id int32 | seq id int64 | cell count int32 | cell*
 * cell   := flags u8 | [row: varint length, bytes] | [family: u8 length, bytes]
 *           | qualifier: varint length, bytes | [timestamp int64] | value: varint length, bytes
 * </pre>
 *
 * A cell's flags carry its type code (low four bits) and say which of row, family and timestamp
 * repeat the previous cell's; a repeated part is not written. A batch of rows of one family written
 * at one time so stores each row once and each family and timestamp once per edit: half the bytes
 * of version 2, which logged every cell whole ({@code cell length int32 | cell bytes}). Version 2
 * files are still read.
 *
 * <p>All fixed-width integers are big-endian; varints as {@link VarInt}. The record header has its
 * own checksum so that a damaged length is recognised as damage, and the records after it can still
 * be found by scanning (see {@link WalFileReader}).
 */
final class WalFormat {
  private WalFormat() {}

  static final byte[] MAGIC = {'B', 'W', 'A', 'L'};
  /**
   * 3: cells share row, family and timestamp with the cell before. 2: the record header carries a
   * checksum of its own (version 2 files are still read). Version 1 files are refused.
   */
  static final int VERSION = 4;
  /** The oldest version this build reads. */
  static final int OLDEST_READABLE = 2;
  /**
   * The header of the files this build writes (version 4). Version 4 adds the fenced length: -1, or
   * the file was started because the previous file failed, and that file's records from this offset
   * on (where its last forced record ends) are rewritten here, so a bad spot there is no damage.
   */
  static final int HEADER_SIZE = 28;
  /** The header of versions 2 and 3, which have no fenced length. */
  static final int HEADER_SIZE_V3 = 20;
  static final int RECORD_HEADER_SIZE = 12;
  /** Region id, seq id and cell count: a payload is never shorter. */
  static final int MIN_PAYLOAD = 4 + 8 + 4;
  /** Largest payload a record can have (its length must fit an int together with the header). */
  static final int MAX_PAYLOAD = Integer.MAX_VALUE - RECORD_HEADER_SIZE;
  /** Smallest serialized cell: the two lengths and the key infrastructure, all parts empty. */
  static final int MIN_CELL = Cell.PREFIX + Cell.KEY_INFRASTRUCTURE;

  /** Version 3 flags (the payload is {@link WriteRecordCodec}'s layout): the cell's row is the previous cell's. */
  static final int SAME_ROW = WriteRecordCodec.SAME_ROW;
  /** The cell's family is the previous cell's (not written). */
  static final int SAME_FAMILY = WriteRecordCodec.SAME_FAMILY;
  /** The cell's timestamp is the previous cell's (not written). */
  static final int SAME_TIMESTAMP = WriteRecordCodec.SAME_TIMESTAMP;

  private static final Pattern NAME = Pattern.compile("wal-(\\d{20})\\.log");

  /** {@code wal-<20-digit zero-padded number>.log}: names sort in creation order. */
  static String fileName(long number) {
    return String.format("wal-%020d.log", number);
  }

  /** The file number encoded in a WAL file name, or -1 if the name is not a WAL file's. */
  static long parseFileNumber(Path file) {
    Matcher m = NAME.matcher(file.getFileName().toString());
    if (!m.matches()) {
      return -1;
    }
    try {
      return Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      return -1; // 20 digits can exceed Long.MAX_VALUE
    }
  }

  static byte[] header(long fileNumber) {
    return header(fileNumber, -1);
  }

  /** The header of a new file; {@code fencedLength} -1, or where the failed previous file's rewritten records began. */
  static byte[] header(long fileNumber, long fencedLength) {
    byte[] h = new byte[HEADER_SIZE];
    System.arraycopy(MAGIC, 0, h, 0, 4);
    Bytes.putInt(h, 4, VERSION);
    Bytes.putLong(h, 8, fileNumber);
    Bytes.putLong(h, 16, fencedLength);
    Bytes.putInt(h, 24, crc(h, 0, 24));
    return h;
  }

  /** The size of the header of a file of {@code version}. */
  static int headerSize(int version) {
    return version >= 4 ? HEADER_SIZE : HEADER_SIZE_V3;
  }

  /** A good header's fenced length: -1 if the previous file was not fenced (and always before version 4). */
  static long fencedLength(byte[] h) {
    return version(h) >= 4 ? Bytes.getLong(h, 16) : -1;
  }

  /** Whether the header's own checksum (at its end, by its version) matches. */
  static boolean headerChecksumMatches(byte[] h) {
    int size = h.length >= 8 && version(h) >= 4 ? HEADER_SIZE : HEADER_SIZE_V3;
    return h.length >= size && Bytes.getInt(h, size - 4) == crc(h, 0, size - 4);
  }

  /**
   * Checks a header read from disk; returns null if it is good and belongs to {@code fileNumber},
   * else the reason it is not.
   */
  static String checkHeader(byte[] h, long fileNumber) {
    if (!hasMagic(h)) {
      return "no WAL magic \"BWAL\" at offset 0 (found \"" + Bytes.toStringBinary(h, 0, Math.min(4, h.length))
          + "\"): not a Bellows WAL file, or its header is damaged";
    }
    int version = Bytes.getInt(h, 4);
    if (h.length < headerSize(version) || !headerChecksumMatches(h)) {
      return "file header checksum mismatch";
    }
    if (!readable(version)) {
      return unsupportedVersion(version);
    }
    long number = Bytes.getLong(h, 8);
    if (number != fileNumber) {
      return "header says file number " + number + " but the name says " + fileNumber;
    }
    return null;
  }

  /** Whether {@code h} starts with the WAL magic. */
  static boolean hasMagic(byte[] h) {
    return h.length >= 4 && Bytes.equals(h, 0, 4, MAGIC, 0, 4);
  }

  /** Whether this build reads files of format {@code version}. */
  static boolean readable(int version) {
    return version >= OLDEST_READABLE && version <= VERSION;
  }

  /** The format version a header says (unchecked). */
  static int version(byte[] h) {
    return Bytes.getInt(h, 4);
  }

  static String unsupportedVersion(int version) {
    return "WAL format version " + version + " is not supported (this build reads versions " + OLDEST_READABLE
        + " to " + VERSION + ")";
  }

  /**
   * The payload length if {@code b[off..off+12)} is a record header whose own checksum matches and
   * whose length is possible, else -1. Says nothing about the payload.
   */
  static int recordHeaderLength(byte[] b, int off) {
    int len = Bytes.getInt(b, off);
    if (Bytes.getInt(b, off + 8) != crc(b, off, 8) || len < MIN_PAYLOAD || len > MAX_PAYLOAD) {
      return -1;
    }
    return len;
  }

  /**
   * The complete record (header with both checksums, then the payload) of an edit, in the current
   * version. Two passes over the cells: the first decides each cell's flags and the length, the
   * second writes.
   *
   * @throws IllegalArgumentException if the edit is too large for one record (its cells, whole, may
   *     not exceed {@link #MAX_PAYLOAD} bytes: what a reader may have to rebuild) or holds a search key
   */
  static byte[] encode(WriteRecord edit) {
    int payloadLen;
    try {
      payloadLen = WriteRecordCodec.encodedLength(edit); // both bounds are MAX_PAYLOAD's
    } catch (IllegalArgumentException e) {
      if (e.getMessage().contains("search key")) {
        throw e;
      }
      throw new IllegalArgumentException("edit is too large for one WAL record: " + e.getMessage(), e);
    }
    byte[] r = new byte[RECORD_HEADER_SIZE + payloadLen];
    WriteRecordCodec.encode(edit, r, RECORD_HEADER_SIZE);
    Bytes.putInt(r, 0, payloadLen);
    Bytes.putInt(r, 4, crc(r, RECORD_HEADER_SIZE, payloadLen));
    Bytes.putInt(r, 8, crc(r, 0, 8));
    return r;
  }

  private static boolean isStoredType(int code) {
    return code == CellType.PUT.code() || code == CellType.DELETE.code() || code == CellType.DELETE_COLUMN.code()
        || code == CellType.DELETE_FAMILY.code();
  }

  /**
   * Decodes a payload of a version {@code version} file whose checksum has already been verified.
   * The cells are stamped with the edit's sequence id; in version 2 they are views over {@code
   * payload} (no copy), in version 3 over one array rebuilt for the edit.
   *
   * @throws IllegalArgumentException naming the problem if the payload is not a well-formed edit
   */
  static WriteRecord decodePayload(byte[] payload, int version) {
    return version == 2 ? decodeVersion2(payload) : decodeVersion3(payload);
  }

  /**
   * The cell count of a payload, checked against its length at {@code minCell} bytes per cell at
   * least, which bounds it before anything is allocated for it.
   */
  private static int cellCount(byte[] payload, int minCell) {
    int len = payload.length;
    if (len < MIN_PAYLOAD) {
      throw new IllegalArgumentException("payload of " + len + " bytes is shorter than " + MIN_PAYLOAD);
    }
    int count = Bytes.getInt(payload, 12);
    if (count < 0 || count > (len - MIN_PAYLOAD) / minCell) {
      throw new IllegalArgumentException("impossible cell count " + count + " for a payload of " + len + " bytes");
    }
    return count;
  }

  /** Versions 3 and 4 store the record in {@link WriteRecordCodec}'s layout. */
  private static WriteRecord decodeVersion3(byte[] payload) {
    return WriteRecordCodec.decode(payload, 0, payload.length, "payload");
  }

  /** Version 2: every cell whole, after its length; the cells are views over the payload. */
  private static WriteRecord decodeVersion2(byte[] payload) {
    int len = payload.length;
    int count = cellCount(payload, 4 + MIN_CELL); // a length, then a cell
    int regionId = Bytes.getInt(payload, 0);
    long seqId = Bytes.getLong(payload, 4);
    List<Cell> cells = new ArrayList<>(count);
    int p = MIN_PAYLOAD;
    for (int i = 0; i < count; i++) {
      if (len - p < 4) {
        throw new IllegalArgumentException("cell " + i + ": length runs past the payload");
      }
      int cellLen = Bytes.getInt(payload, p);
      p += 4;
      if (cellLen < MIN_CELL || cellLen > len - p) {
        throw new IllegalArgumentException("cell " + i + ": bad length " + cellLen);
      }
      long keyLen = Bytes.getInt(payload, p);
      long valueLen = Bytes.getInt(payload, p + 4);
      if (keyLen < Cell.KEY_INFRASTRUCTURE || valueLen < 0 || Cell.PREFIX + keyLen + valueLen != cellLen) {
        throw new IllegalArgumentException("cell " + i + ": key length " + keyLen + " and value length "
            + valueLen + " do not add up to cell length " + cellLen);
      }
      int rowLen = Bytes.getShort(payload, p + Cell.PREFIX);
      int famLenPos = p + Cell.PREFIX + 2 + rowLen;
      if (2L + rowLen + 1 + 9 > keyLen || payload[famLenPos] < 0 || 2L + rowLen + 1 + payload[famLenPos] + 9 > keyLen) {
        throw new IllegalArgumentException("cell " + i + ": row/family lengths exceed key length " + keyLen);
      }
      CellType.fromCode(payload[p + Cell.PREFIX + (int) keyLen - 1]); // throws IllegalArgumentException if unknown
      cells.add(new Cell(payload, p, cellLen, seqId));
      p += cellLen;
    }
    if (p != len) {
      throw new IllegalArgumentException((len - p) + " stray bytes after the last cell");
    }
    return new WriteRecord(regionId, seqId, cells);
  }

  static int crc(byte[] b, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(b, off, len);
    return (int) c.getValue();
  }
}
