package io.bellows.sstable;

import java.nio.ByteBuffer;

/**
 * Bounds-checked decoding of a payload region {@code [pos, limit)}: every read that would run past
 * the limit throws {@link MalformedBlockException} instead of an index error, so corrupt input is
 * always reported as such. Reads a heap array or a buffer (a block the off-heap cache holds, read
 * where it lies) by absolute index, big-endian; never moves the buffer's own position. Not
 * thread-safe.
 */
final class ByteReader {
  private final ByteBuffer b;
  private int pos;
  private final int limit;

  ByteReader(byte[] b, int pos, int limit) {
    this(ByteBuffer.wrap(b), pos, limit);
  }

  ByteReader(ByteBuffer b, int pos, int limit) {
    if (pos < 0 || limit > b.limit() || pos > limit) {
      throw new MalformedBlockException("region [" + pos + ", " + limit + ") outside " + b.limit() + " bytes");
    }
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
    return b.get(pos++) & 0xff;
  }

  int getInt() {
    need(4);
    int v = b.getInt(pos);
    pos += 4;
    return v;
  }

  long getLong() {
    need(8);
    long v = b.getLong(pos);
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
    byte[] out = new byte[n];
    b.get(at, out, 0, n);
    return out;
  }
}
