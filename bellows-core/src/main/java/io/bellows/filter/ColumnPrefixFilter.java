package io.bellows.filter;

import io.bellows.cell.Cell;
import io.bellows.util.Bytes;

/** Keeps the cells whose qualifier starts with the prefix. */
public final class ColumnPrefixFilter extends Filter {
  private final byte[] prefix;

  public ColumnPrefixFilter(byte[] prefix) {
    this.prefix = prefix.clone();
  }

  public byte[] prefix() {
    return prefix.clone();
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    int qlen = c.qualifierLength();
    int n = Math.min(qlen, prefix.length);
    int cmp = Bytes.compare(c.array(), c.qualifierOffset(), n, prefix, 0, n);
    if (cmp == 0 && qlen >= prefix.length) {
      return ReturnCode.INCLUDE;
    }
    // Before the prefix (shorter and equal so far, or smaller): later columns may match.
    return cmp <= 0 ? ReturnCode.SKIP : ReturnCode.NEXT_ROW;
  }

  @Override
  public Filter fresh() {
    return withFlags(new ColumnPrefixFilter(prefix));
  }

  @Override
  public String toString() {
    return "ColumnPrefixFilter(" + Bytes.toStringBinary(prefix) + ")";
  }
}
