package io.bellows.filter;

import io.bellows.cell.Cell;
import io.bellows.util.Bytes;

/** Keeps the rows whose key starts with the prefix; ends the scan once the rows have passed it. */
public final class PrefixFilter extends Filter {
  private final byte[] prefix;
  private boolean passedPrefix;
  private boolean filterRow = true;

  public PrefixFilter(byte[] prefix) {
    this.prefix = prefix.clone();
  }

  public byte[] prefix() {
    return prefix.clone();
  }

  @Override
  public void reset() {
    filterRow = true;
  }

  @Override
  public boolean filterRowKey(Cell first) {
    if (filterAllRemaining() || first.rowLength() < prefix.length) {
      return true;
    }
    int cmp = Bytes.compare(first.array(), first.rowOffset(), prefix.length, prefix, 0, prefix.length);
    if ((!reversed && cmp > 0) || (reversed && cmp < 0)) {
      passedPrefix = true;
    }
    filterRow = cmp != 0;
    return filterRow;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    return filterRow ? ReturnCode.NEXT_ROW : ReturnCode.INCLUDE;
  }

  @Override
  public boolean filterRow() {
    return filterRow;
  }

  @Override
  public boolean filterAllRemaining() {
    return passedPrefix;
  }

  @Override
  public Filter fresh() {
    return withFlags(new PrefixFilter(prefix));
  }

  @Override
  public String toString() {
    return "PrefixFilter(" + Bytes.toStringBinary(prefix) + ")";
  }
}
