package io.bellows.sstable;

import io.bellows.util.Bytes;
import java.nio.ByteBuffer;

/**
 * Bounds-checked decoding of a payload region {@code [pos, limit)}: every read that would run past
 * the limit throws {@link MalformedBlockException} instead of an index error, so corrupt input is
 * always reported as such. Reads a heap array or a buffer (a block the off-heap cache holds, read
 * where it lies) by absolute index, big-endian; never moves the buffer's own position. Not
 * thread-safe.
 */
final class ByteReader {
  /**
   * The heap array read, or null when reading {@link #b}. An array is read as itself rather than
   * wrapped in a buffer: an index search made a reader per probe, and the wrapper, which escape
   * analysis did not remove, was 4.6% of the bytes allocated while gets and writes ran.
   */
  private final byte[] a;
  private final ByteBuffer b;
  private int pos;
  private final int limit;

  ByteReader(byte[] a, int pos, int limit) {
    this(a, null, a.length, pos, limit);
  }

  ByteReader(ByteBuffer b, int pos, int limit) {
    this(null, b, b.limit(), pos, limit);
  }

  private ByteReader(byte[] a, ByteBuffer b, int length, int pos, int limit) {
    if (pos < 0 || limit > length || pos > limit) {
      throw new MalformedBlockException("region [" + pos + ", " + limit + ") outside " + length + " bytes");
    }
    this.a = a;
    this.b = b;
    this.pos = pos;
    this.limit = limit;
  }

  int position() {
    return pos;
  }

  void position(int p) {
    if (p < 0 || p > limit) {
      throw new MalformedBlockException("position " + p + " outside [0, " + limit + ")");
    }
    pos = p;
  }

  int remaining() {
    return limit - pos;
  }

  private void need(int n) {
    if (n < 0 || n > limit - pos) {
      throw new MalformedBlockException("need " + n + " bytes at " + pos + " but only " + (limit - pos) + " remain");
    }
  }

  int getByte() {
    need(1);
    return (a != null ? a[pos++] : b.get(pos++)) & 0xff;
  }

  int getInt() {
    need(4);
    int v = a != null ? Bytes.getInt(a, pos) : b.getInt(pos);
    pos += 4;
    return v;
  }

  long getLong() {
    need(8);
    long v = a != null ? Bytes.getLong(a, pos) : b.getLong(pos);
    pos += 8;
    return v;
  }

  long getVarLong() {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int x = getByte();
      v |= (long) (x & 0x7F) << shift;
      if ((x & 0x80) == 0) {
        return v;
      }
    }
    throw new MalformedBlockException("varint longer than 10 bytes at " + pos);
  }

  /** A varint that must fit a non-negative int (a length or count). */
  int getVarLength() {
    long v = getVarLong();
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new MalformedBlockException("length " + v + " out of range");
    }
    return (int) v;
  }

  /** Skips {@code n} bytes, returning the offset where they start. */
  int skip(int n) {
    need(n);
    int at = pos;
    pos += n;
    return at;
  }

  byte[] getBytes(int n) {
    int at = skip(n);
    if (a != null) {
      return java.util.Arrays.copyOfRange(a, at, at + n);
    }
    byte[] out = new byte[n];
    b.get(at, out, 0, n);
    return out;
  }
}
