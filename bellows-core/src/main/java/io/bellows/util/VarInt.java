package io.bellows.util;

import java.nio.ByteBuffer;

/** Unsigned LEB128 variable-length integers (7 bits per byte, low bits first). */
public final class VarInt {
  private VarInt() {}

  public static int sizeOf(long v) {
    int n = 1;
    while ((v & ~0x7FL) != 0) {
      v >>>= 7;
      n++;
    }
    return n;
  }

  /** Writes {@code v} at {@code off}; returns the offset after it. */
  public static int put(byte[] b, int off, long v) {
    while ((v & ~0x7FL) != 0) {
      b[off++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    b[off++] = (byte) v;
    return off;
  }

  public static void put(ByteBuffer buf, long v) {
    while ((v & ~0x7FL) != 0) {
      buf.put((byte) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    buf.put((byte) v);
  }

  /** Reads a varint from the buffer's position, advancing it. */
  public static long get(ByteBuffer buf) {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte b = buf.get();
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new IllegalStateException("varint longer than 10 bytes");
  }

  /** Reads a varint at {@code pos[0]} in {@code b}, advancing {@code pos[0]}. */
  public static long get(byte[] b, int[] pos) {
    long v = 0;
    int p = pos[0];
    for (int shift = 0; shift < 64; shift += 7) {
      byte x = b[p++];
      v |= (long) (x & 0x7F) << shift;
      if ((x & 0x80) == 0) {
        pos[0] = p;
        return v;
      }
    }
    throw new IllegalStateException("varint longer than 10 bytes");
  }
}
