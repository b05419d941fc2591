package io.bellows.filter;

import io.bellows.util.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The operand of a comparing filter: compares itself with a cell's row, family, qualifier or value.
 * The four kinds are HBase's binary, binary-prefix, regex and substring comparators; the last two
 * only tell equal (0) from different (1), so they make sense with {@code EQUAL} and {@code NOT_EQUAL}.
 * Immutable; {@link #kind()}, {@link #operand()} and {@link #flags()} describe it fully (the wire
 * form carries them).
 */
public final class ByteComparator {
  public enum Kind { BINARY, BINARY_PREFIX, REGEX, SUBSTRING }

  private final Kind kind;
  private final byte[] operand;
  private final int flags;
  private final Pattern pattern;
  private final String lowerSubstring;

  private ByteComparator(Kind kind, byte[] operand, int flags) {
    this.kind = kind;
    this.operand = operand.clone();
    this.flags = flags;
    String text = new String(operand, StandardCharsets.UTF_8);
    this.pattern = kind == Kind.REGEX ? Pattern.compile(text, flags) : null;
    this.lowerSubstring = kind == Kind.SUBSTRING ? text.toLowerCase(Locale.ROOT) : null;
  }

  /** Any kind from its parts (regex flags are {@link Pattern} flags; ignored by the other kinds). */
  public static ByteComparator of(Kind kind, byte[] operand, int flags) {
    return new ByteComparator(kind, operand, flags);
  }

  /** Unsigned lexicographic comparison with the operand. */
  public static ByteComparator binary(byte[] operand) {
    return new ByteComparator(Kind.BINARY, operand, 0);
  }

  /** Compares only the cell's first {@code operand.length} bytes (fewer if it is shorter). */
  public static ByteComparator binaryPrefix(byte[] operand) {
    return new ByteComparator(Kind.BINARY_PREFIX, operand, 0);
  }

  /** 0 when the regular expression is found in the bytes read as UTF-8, else 1. */
  public static ByteComparator regex(String expr, int flags) {
    return new ByteComparator(Kind.REGEX, expr.getBytes(StandardCharsets.UTF_8), flags);
  }

  /** A regex with HBase's default flags ({@link Pattern#DOTALL}). */
  public static ByteComparator regex(String expr) {
    return regex(expr, Pattern.DOTALL);
  }

  /** 0 when the bytes read as UTF-8 contain the substring, ignoring case, else 1. */
  public static ByteComparator substring(String sub) {
    return new ByteComparator(Kind.SUBSTRING, sub.getBytes(StandardCharsets.UTF_8), 0);
  }

  public Kind kind() {
    return kind;
  }

  public byte[] operand() {
    return operand.clone();
  }

  public int flags() {
    return flags;
  }

  /** Operand compared with {@code b[off, off+len)}: negative, zero or positive. */
  public int compareTo(byte[] b, int off, int len) {
    switch (kind) {
      case BINARY:
        return Bytes.compare(operand, 0, operand.length, b, off, len);
      case BINARY_PREFIX:
        return Bytes.compare(operand, 0, operand.length, b, off, Math.min(len, operand.length));
      case REGEX:
        return pattern.matcher(new String(b, off, len, StandardCharsets.UTF_8)).find() ? 0 : 1;
      default:
        return new String(b, off, len, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT).contains(lowerSubstring) ? 0 : 1;
    }
  }

  @Override
  public String toString() {
    return kind.name().toLowerCase(Locale.ROOT) + "(" + Bytes.toStringBinary(operand) + ")";
  }
}
