package io.bellows.sstable;

import io.bellows.cell.Cell;
import io.bellows.util.Bytes;
import java.nio.ByteBuffer;

/**
 * Walks the entries of one data block payload (the format {@link DataBlockBuilder} writes): decodes
 * entries forward, undoing prefix compression, and seeks by binary search over the restart points
 * followed by a short linear walk. Not thread-safe (one scanner owns it); the payload is shared and
 * never modified. Malformed input raises {@link MalformedBlockException}.
 *
 * <p>The payload is a heap array or a buffer over the off-heap cache's slot (a get reads such a
 * block where it lies): keys are decoded into the cursor's own array and {@link #current} copies the
 * value out, so nothing the cursor hands out refers to the payload.
 */
final class DataBlockCursor {
  private final ByteBuffer b;
  private final int entriesEnd;
  private final int restartsStart;
  private final int restartCount;

  private byte[] key = new byte[64];
  /** A restart point's key during a seek's binary search, copied out of a direct payload to compare it. */
  private byte[] restartKey = new byte[64];
  private int keyLen;
  private long seqId;
  private int valueOff;
  private int valueLen;
  private int nextPos;
  /** Offset of the current entry in the payload. */
  private int entryOffset;
  private boolean valid;
  private Cell cell;

  DataBlockCursor(byte[] payload) {
    this(ByteBuffer.wrap(payload));
  }

  /** A cursor over {@code payload}'s bytes {@code [0, limit)}, read by absolute index (its position is ignored). */
  DataBlockCursor(ByteBuffer payload) {
    this.b = payload;
    int length = payload.limit();
    if (length < 4) {
      throw new MalformedBlockException("data block of " + length + " bytes has no restart count");
    }
    restartCount = payload.getInt(length - 4);
    if (restartCount < 1 || restartCount > (length - 4) / 4) {
      throw new MalformedBlockException("data block restart count " + restartCount + " out of range");
    }
    restartsStart = length - 4 - 4 * restartCount;
    entriesEnd = restartsStart;
  }

  /** Offset of the current entry in the block's payload: names a row's position for access counts. */
  int entryOffset() {
    return entryOffset;
  }

  /** Whether the current entry's row is {@code row} (the cursor must be valid). */
  boolean currentRowIs(byte[] row) {
    return Bytes.equals(key, 2, Bytes.getShort(key, 0), row, 0, row.length);
  }

  /** The number of rows in the block: one walk of it. */
  int rowCount() {
    int n = 0;
    byte[] row = null;
    int rowLen = 0;
    for (seekToFirst(); valid; advance()) {
      int len = Bytes.getShort(key, 0);
      if (row == null || !Bytes.equals(row, 0, rowLen, key, 2, len)) {
        if (row == null || row.length < len) {
          row = new byte[Math.max(len, 16)];
        }
        System.arraycopy(key, 2, row, 0, len);
        rowLen = len;
        n++;
      }
    }
    return n;
  }

  /** Whether the cursor is on an entry. */
  boolean valid() {
    return valid;
  }

  /** The current cell (materialized once per position). */
  Cell current() {
    if (!valid) {
      return null;
    }
    if (cell == null) {
      byte[] out = new byte[Cell.PREFIX + keyLen + valueLen];
      Bytes.putInt(out, 0, keyLen);
      Bytes.putInt(out, 4, valueLen);
      System.arraycopy(key, 0, out, Cell.PREFIX, keyLen);
      b.get(valueOff, out, Cell.PREFIX + keyLen, valueLen);
      cell = new Cell(out, 0, out.length, seqId);
    }
    return cell;
  }

  void seekToFirst() {
    keyLen = 0;
    decodeAt(restartOffset(0), true);
  }

  /** Moves to the next entry; returns whether there is one. */
  boolean advance() {
    if (!valid) {
      return false;
    }
    if (nextPos >= entriesEnd) {
      valid = false;
      cell = null;
      return false;
    }
    decodeAt(nextPos, false);
    return true;
  }

  /**
   * Decodes the entry at the last restart point whose key is &lt; {@code target} (the first one if
   * none is): the first entry &gt;= target is at or after it.
   */
  private void positionAtRestartBelow(Cell target) {
    int lo = 0;
    int hi = restartCount - 1;
    int start = 0;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (compareRestartKey(mid, target) < 0) {
        start = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    keyLen = 0;
    decodeAt(restartOffset(start), true);
  }

  /** Positions at the first entry &gt;= {@code target}; returns false (invalid) if every entry is smaller. */
  boolean seek(Cell target) {
    positionAtRestartBelow(target);
    while (valid && compareCurrent(target) < 0) {
      advance();
    }
    return valid;
  }

  /**
   * The row of the last entry &lt; {@code target}, or null when the block's first entry is not
   * smaller; leaves the cursor on the first entry &gt;= target (invalid if none). For reversed reads.
   */
  byte[] rowBefore(Cell target) {
    positionAtRestartBelow(target);
    int rowLen = -1;
    byte[] row = null;
    while (valid && compareCurrent(target) < 0) {
      rowLen = Bytes.getShort(key, 0);
      if (row == null || !Bytes.equals(row, 0, row.length, key, 2, rowLen)) {
        row = java.util.Arrays.copyOfRange(key, 2, 2 + rowLen); // keys start with the row's length and bytes
      }
      advance();
    }
    return row;
  }

  /** Compares the current entry with {@code target}. */
  int compareCurrent(Cell target) {
    return KeyOrder.compare(key, 0, keyLen, seqId, target);
  }

  private int restartOffset(int i) {
    int off = b.getInt(restartsStart + 4 * i);
    if (off < 0 || off >= entriesEnd) {
      throw new MalformedBlockException("restart offset " + off + " outside entries [0, " + entriesEnd + ")");
    }
    return off;
  }

  private int compareRestartKey(int i, Cell target) {
    ByteReader r = new ByteReader(b, restartOffset(i), entriesEnd);
    if (r.getVarLength() != 0) {
      throw new MalformedBlockException("restart entry shares a key prefix");
    }
    int kLen = r.getVarLength();
    int vLen = r.getVarLength();
    int kOff = r.skip(kLen);
    r.skip(vLen);
    long seq = r.getVarLong();
    if (b.hasArray()) { // a heap block: compared where it lies
      checkKey(b.array(), b.arrayOffset() + kOff, kLen);
      return KeyOrder.compare(b.array(), b.arrayOffset() + kOff, kLen, seq, target);
    }
    if (restartKey.length < kLen) {
      restartKey = new byte[Math.max(kLen, restartKey.length * 2)];
    }
    b.get(kOff, restartKey, 0, kLen);
    checkKey(restartKey, 0, kLen);
    return KeyOrder.compare(restartKey, 0, kLen, seq, target);
  }

  private void decodeAt(int pos, boolean restart) {
    entryOffset = pos;
    ByteReader r = new ByteReader(b, pos, entriesEnd);
    int shared = r.getVarLength();
    int unshared = r.getVarLength();
    int vLen = r.getVarLength();
    if (shared > keyLen || (restart && shared != 0)) {
      throw new MalformedBlockException("entry at " + pos + " shares " + shared + " bytes of a " + keyLen + "-byte key");
    }
    int kOff = r.skip(unshared);
    int newLen = shared + unshared;
    if (key.length < newLen) {
      byte[] k = new byte[Math.max(newLen, key.length * 2)];
      System.arraycopy(key, 0, k, 0, shared);
      key = k;
    }
    b.get(kOff, key, shared, unshared);
    keyLen = newLen;
    checkKey(key, 0, keyLen);
    valueOff = r.skip(vLen);
    valueLen = vLen;
    seqId = r.getVarLong();
    nextPos = r.position();
    valid = true;
    cell = null;
  }

  /** Rejects a key whose internal lengths do not fit, so later comparisons cannot overrun. */
  static void checkKey(byte[] k, int off, int len) {
    if (len < io.bellows.cell.Cell.KEY_INFRASTRUCTURE) {
      throw new MalformedBlockException("key of " + len + " bytes is too short");
    }
    int rowLen = Bytes.getShort(k, off);
    if (2 + rowLen + 1 + 9 > len) {
      throw new MalformedBlockException("row length " + rowLen + " does not fit a " + len + "-byte key");
    }
    int famLen = k[off + 2 + rowLen];
    if (famLen < 0 || 2 + rowLen + 1 + famLen + 9 > len) {
      throw new MalformedBlockException("family length " + famLen + " does not fit a " + len + "-byte key");
    }
  }
}
