package io.bellows.cli.shell;

import io.bellows.cell.Cell;
import io.bellows.util.Bytes;
import java.io.PrintStream;

/**
 * Prints results in the two-column layout of HBase's shell: a header line, one line per entry with
 * a leading space, the right column starting at a fixed position, and an {@code N row(s)} footer.
 * Keys and values are shown with {@link Bytes#toStringBinary}. Not thread-safe.
 */
public final class TablePrinter {
  /** Position (0-based) where the right column starts, as in HBase's shell. */
  static final int LEFT_WIDTH = 35;

  private final PrintStream out;

  public TablePrinter(PrintStream out) {
    this.out = out;
  }

  public void header(String left, String right) {
    out.println(pad(left) + right);
  }

  public void row(String left, String right) {
    out.println(pad(" " + left) + right);
  }

  public void footer(long count) {
    out.println(count + " row(s)");
  }

  public void line(String text) {
    out.println(text);
  }

  private static String pad(String s) {
    if (s.length() >= LEFT_WIDTH) {
      return s + " ";
    }
    return s + " ".repeat(LEFT_WIDTH - s.length());
  }

  /** {@code family:qualifier} of a cell, printable. */
  static String column(Cell c) {
    return Bytes.toStringBinary(c.array(), c.familyOffset(), c.familyLength())
        + ":" + Bytes.toStringBinary(c.array(), c.qualifierOffset(), c.qualifierLength());
  }

  /** {@code timestamp=..., value=...} of a cell, printable. */
  static String timestampAndValue(Cell c) {
    return "timestamp=" + c.timestamp() + ", value=" + Bytes.toStringBinary(c.array(), c.valueOffset(), c.valueLength());
  }
}
