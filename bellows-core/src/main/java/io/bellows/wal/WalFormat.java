package io.bellows.wal;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.util.Bytes;
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
 * header := magic "BWAL" (4) | version int32 (4) | file number int64 (8) | CRC32C of bytes 0..15 (4)
 * record := payload length int32 (4) | CRC32C of payload (4) | CRC32C of the 8 bytes before (4) | payload
 * payload:= region id int32 | seq id int64 | cell count int32 | (cell length int32 | cell bytes)*
 * </pre>
 *
 * All integers are big-endian. The record header has its own checksum so that a damaged length is
 * recognised as damage, and the records after it can still be found by scanning (see {@link
 * WalFileReader}).
 */
final class WalFormat {
  private WalFormat() {}

  static final byte[] MAGIC = {'B', 'W', 'A', 'L'};
  /** 2: the record header carries a checksum of its own. Version 1 files are refused. */
  static final int VERSION = 2;
  static final int HEADER_SIZE = 20;
  static final int RECORD_HEADER_SIZE = 12;
  /** Region id, seq id and cell count: a payload is never shorter. */
  static final int MIN_PAYLOAD = 4 + 8 + 4;
  /** Largest payload a record can have (its length must fit an int together with the header). */
  static final int MAX_PAYLOAD = Integer.MAX_VALUE - RECORD_HEADER_SIZE;
  /** Smallest serialized cell: the two lengths and the key infrastructure, all parts empty. */
  static final int MIN_CELL = Cell.PREFIX + Cell.KEY_INFRASTRUCTURE;

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
    byte[] h = new byte[HEADER_SIZE];
    System.arraycopy(MAGIC, 0, h, 0, 4);
    Bytes.putInt(h, 4, VERSION);
    Bytes.putLong(h, 8, fileNumber);
    Bytes.putInt(h, 16, crc(h, 0, 16));
    return h;
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
    if (Bytes.getInt(h, 16) != crc(h, 0, 16)) {
      return "file header checksum mismatch";
    }
    int version = Bytes.getInt(h, 4);
    if (version != VERSION) {
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

  static String unsupportedVersion(int version) {
    return "WAL format version " + version + " is not supported (this build reads version " + VERSION + ")";
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

  /** The complete record (header with both checksums, then the payload) of an edit. */
  static byte[] encode(WalEdit edit) {
    long payloadLen = MIN_PAYLOAD;
    for (Cell c : edit.cells()) {
      payloadLen += 4L + c.length();
    }
    if (payloadLen > MAX_PAYLOAD) {
      throw new IllegalArgumentException("edit of " + payloadLen + " bytes is too large for one WAL record");
    }
    byte[] r = new byte[RECORD_HEADER_SIZE + (int) payloadLen];
    int p = RECORD_HEADER_SIZE;
    Bytes.putInt(r, p, edit.regionId());
    p += 4;
    Bytes.putLong(r, p, edit.seqId());
    p += 8;
    Bytes.putInt(r, p, edit.cells().size());
    p += 4;
    for (Cell c : edit.cells()) {
      Bytes.putInt(r, p, c.length());
      p += 4;
      System.arraycopy(c.array(), c.offset(), r, p, c.length());
      p += c.length();
    }
    Bytes.putInt(r, 0, (int) payloadLen);
    Bytes.putInt(r, 4, crc(r, RECORD_HEADER_SIZE, (int) payloadLen));
    Bytes.putInt(r, 8, crc(r, 0, 8));
    return r;
  }

  /**
   * Decodes a payload whose checksum has already been verified. The cells are views over {@code
   * payload} (no copy) stamped with the edit's sequence id.
   *
   * @throws IllegalArgumentException naming the problem if the payload is not a well-formed edit
   */
  static WalEdit decodePayload(byte[] payload) {
    int len = payload.length;
    if (len < MIN_PAYLOAD) {
      throw new IllegalArgumentException("payload of " + len + " bytes is shorter than " + MIN_PAYLOAD);
    }
    int regionId = Bytes.getInt(payload, 0);
    long seqId = Bytes.getLong(payload, 4);
    int count = Bytes.getInt(payload, 12);
    // Each cell takes at least 4 + MIN_CELL bytes, which bounds a sane count before allocating.
    if (count < 0 || count > (len - MIN_PAYLOAD) / (4 + MIN_CELL)) {
      throw new IllegalArgumentException("impossible cell count " + count + " for a payload of " + len + " bytes");
    }
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
    return new WalEdit(regionId, seqId, cells);
  }

  static int crc(byte[] b, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(b, off, len);
    return (int) c.getValue();
  }
}
