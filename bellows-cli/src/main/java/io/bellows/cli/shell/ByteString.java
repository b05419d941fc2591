package io.bellows.cli.shell;

import io.bellows.util.Bytes;
import java.util.Arrays;

/**
 * A quoted string of the shell language. Ruby strings are byte strings, and the HBase shell hands
 * their bytes to the store as they are, so a literal keeps its exact bytes ({@code "\x00"} is one
 * zero byte, other characters are UTF-8). Immutable.
 */
public final class ByteString {
  private final byte[] bytes;

  public ByteString(byte[] bytes) {
    this.bytes = bytes.clone();
  }

  public static ByteString of(String text) {
    return new ByteString(Bytes.of(text));
  }

  public byte[] bytes() {
    return bytes.clone();
  }

  /** The bytes read as UTF-8 (names of tables, families, options). */
  public String text() {
    return Bytes.str(bytes);
  }

  public boolean isEmpty() {
    return bytes.length == 0;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ByteString && Arrays.equals(bytes, ((ByteString) o).bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  /** Shown as a single-quoted literal in the printable form of HBase's shell. */
  @Override
  public String toString() {
    return "'" + Bytes.toStringBinary(bytes) + "'";
  }
}
