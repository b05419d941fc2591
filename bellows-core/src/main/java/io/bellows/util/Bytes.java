package io.bellows.util;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Static helpers for byte arrays: unsigned comparison, big-endian fixed-width coding, printing. */
public final class Bytes {
  public static final byte[] EMPTY = new byte[0];

  private Bytes() {}

  public static byte[] of(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  public static String str(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  /** Lexicographic comparison of unsigned bytes. */
  public static int compare(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    return Arrays.compareUnsigned(a, aOff, aOff + aLen, b, bOff, bOff + bLen);
  }

  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  public static boolean equals(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    return Arrays.equals(a, aOff, aOff + aLen, b, bOff, bOff + bLen);
  }

  public static void putInt(byte[] b, int off, int v) {
    b[off] = (byte) (v >>> 24);
    b[off + 1] = (byte) (v >>> 16);
    b[off + 2] = (byte) (v >>> 8);
    b[off + 3] = (byte) v;
  }

  public static int getInt(byte[] b, int off) {
    return ((b[off] & 0xff) << 24) | ((b[off + 1] & 0xff) << 16) | ((b[off + 2] & 0xff) << 8) | (b[off + 3] & 0xff);
  }

  public static void putShort(byte[] b, int off, int v) {
    b[off] = (byte) (v >>> 8);
    b[off + 1] = (byte) v;
  }

  public static int getShort(byte[] b, int off) {
    return ((b[off] & 0xff) << 8) | (b[off + 1] & 0xff);
  }

  public static void putLong(byte[] b, int off, long v) {
    for (int i = 7; i >= 0; i--) {
      b[off + i] = (byte) v;
      v >>>= 8;
    }
  }

  public static long getLong(byte[] b, int off) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[off + i] & 0xff);
    }
    return v;
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
