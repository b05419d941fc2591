package io.bellows.util;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Static helpers for byte arrays: unsigned comparison, big-endian fixed-width coding, printing. */
public final class Bytes {
  public static final byte[] EMPTY = new byte[0];

  // Big-endian views of a byte[]: one (byte-swapped) load or store instead of a byte at a time,
  // which C2 does not merge on its own. They check bounds as array accesses do.
  private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  /**
   * Ranges longer than this compare with the JDK's vectorized mismatch; shorter ones (row keys,
   * qualifiers: the common case) eight bytes at a time here, which avoids the range checks and the
   * out-of-line stub call that cost more than the comparison itself on keys of a few dozen bytes.
   */
  private static final int WORDWISE_MAX = 64;

  private Bytes() {}

  public static byte[] of(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  public static String str(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  /** Lexicographic comparison of unsigned bytes. */
  public static int compare(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    int n = Math.min(aLen, bLen);
    if (n > WORDWISE_MAX) {
      return Arrays.compareUnsigned(a, aOff, aOff + aLen, b, bOff, bOff + bLen);
    }
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long x = (long) LONG.get(a, aOff + i);
      long y = (long) LONG.get(b, bOff + i);
      if (x != y) {
        return Long.compareUnsigned(x, y);
      }
    }
    if (i + 4 <= n) {
      int x = (int) INT.get(a, aOff + i);
      int y = (int) INT.get(b, bOff + i);
      if (x != y) {
        return Integer.compareUnsigned(x, y);
      }
      i += 4;
    }
    for (; i < n; i++) {
      int d = (a[aOff + i] & 0xff) - (b[bOff + i] & 0xff);
      if (d != 0) {
        return d;
      }
    }
    return aLen - bLen;
  }

  /**
   * The first 8 bytes of {@code a[off, off+len)} as a big-endian number, zero-padded when shorter:
   * if {@code Long.compareUnsigned} of two prefixes is not 0, it is the sign of {@link #compare} of
   * the two byte strings (equal prefixes decide nothing).
   */
  public static long prefix64(byte[] a, int off, int len) {
    if (len >= 8) {
      return (long) LONG.get(a, off);
    }
    long p = 0;
    for (int i = 0; i < 8; i++) {
      p = (p << 8) | (i < len ? a[off + i] & 0xff : 0);
    }
    return p;
  }

  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  public static boolean equals(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    if (aLen != bLen) {
      return false;
    }
    if (aLen > WORDWISE_MAX) {
      return Arrays.equals(a, aOff, aOff + aLen, b, bOff, bOff + bLen);
    }
    return compare(a, aOff, aLen, b, bOff, bLen) == 0;
  }

  public static void putInt(byte[] b, int off, int v) {
    INT.set(b, off, v);
  }

  public static int getInt(byte[] b, int off) {
    return (int) INT.get(b, off);
  }

  public static void putShort(byte[] b, int off, int v) {
    SHORT.set(b, off, (short) v);
  }

  /** The unsigned 16-bit number at {@code off}. */
  public static int getShort(byte[] b, int off) {
    return Short.toUnsignedInt((short) SHORT.get(b, off));
  }

  public static void putLong(byte[] b, int off, long v) {
    LONG.set(b, off, v);
  }

  public static long getLong(byte[] b, int off) {
    return (long) LONG.get(b, off);
  }

  public static byte[] toBytes(long v) {
    byte[] b = new byte[8];
    putLong(b, 0, v);
    return b;
  }

  /**
   * Printable form in the style users of HBase's shell know: printable ASCII as is, everything else
   * as {@code \xNN}.
   */
  public static String toStringBinary(byte[] b, int off, int len) {
    StringBuilder sb = new StringBuilder(len);
    for (int i = off; i < off + len; i++) {
      int c = b[i] & 0xff;
      if (c >= ' ' && c <= '~' && c != '\\') {
        sb.append((char) c);
      } else {
        sb.append(String.format("\\x%02X", c));
      }
    }
    return sb.toString();
  }

  public static String toStringBinary(byte[] b) {
    return b == null ? "null" : toStringBinary(b, 0, b.length);
  }

  /** Inverse of {@link #toStringBinary}: {@code \xNN} escapes become bytes, other chars UTF-8. */
  public static byte[] fromStringBinary(String s) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 3 < s.length() && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X')
          && isHex(s.charAt(i + 2)) && isHex(s.charAt(i + 3))) {
        out.write(Integer.parseInt(s.substring(i + 2, i + 4), 16));
        i += 3;
      } else {
        byte[] enc = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        out.write(enc, 0, enc.length);
      }
    }
    return out.toByteArray();
  }

  private static boolean isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }
}
