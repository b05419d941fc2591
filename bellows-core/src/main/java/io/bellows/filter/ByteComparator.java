package io.bellows.filter;

import io.bellows.util.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The operand of a comparing filter: compares itself with a cell's row, family, qualifier or value.
 * The four kinds are HBase's binary, binary-prefix, regex and substring comparators; the last two
 * only tell equal (0) from different (1), so they make sense with {@code EQUAL} and {@code NOT_EQUAL}.
 */
public abstract class ByteComparator {
  /** Operand compared with {@code b[off, off+len)}: negative, zero or positive. */
  public abstract int compareTo(byte[] b, int off, int len);

  /** Unsigned lexicographic comparison with the operand. */
  public static ByteComparator binary(byte[] operand) {
    byte[] v = operand.clone();
    return new ByteComparator() {
      @Override
      public int compareTo(byte[] b, int off, int len) {
        return Bytes.compare(v, 0, v.length, b, off, len);
      }

      @Override
      public String toString() {
        return "binary(" + Bytes.toStringBinary(v) + ")";
      }
    };
  }

  /** Compares only the cell's first {@code operand.length} bytes (fewer if it is shorter). */
  public static ByteComparator binaryPrefix(byte[] operand) {
    byte[] v = operand.clone();
    return new ByteComparator() {
      @Override
      public int compareTo(byte[] b, int off, int len) {
        return Bytes.compare(v, 0, v.length, b, off, Math.min(len, v.length));
      }

      @Override
      public String toString() {
        return "binaryPrefix(" + Bytes.toStringBinary(v) + ")";
      }
    };
  }

  /** 0 when the regular expression is found in the bytes read as UTF-8, else 1. */
  public static ByteComparator regex(String expr, int flags) {
    Pattern p = Pattern.compile(expr, flags);
    return new ByteComparator() {
      @Override
      public int compareTo(byte[] b, int off, int len) {
        return p.matcher(new String(b, off, len, StandardCharsets.UTF_8)).find() ? 0 : 1;
      }

      @Override
      public String toString() {
        return "regex(" + expr + ")";
      }
    };
  }

  public static ByteComparator regex(String expr) {
    return regex(expr, Pattern.DOTALL);
  }

  /** 0 when the bytes read as UTF-8 contain the substring, ignoring case, else 1. */
  public static ByteComparator substring(String sub) {
    String lower = sub.toLowerCase(Locale.ROOT);
    return new ByteComparator() {
      @Override
      public int compareTo(byte[] b, int off, int len) {
        return new String(b, off, len, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT).contains(lower) ? 0 : 1;
      }

      @Override
      public String toString() {
        return "substring(" + sub + ")";
      }
    };
  }
}
