package io.bellows.filter;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.util.Bytes;

/** Returns every cell with an empty value, or with its value's length as a 4-byte value. */
public final class KeyOnlyFilter extends Filter {
  private final boolean lengthAsValue;

  public KeyOnlyFilter() {
    this(false);
  }

  public KeyOnlyFilter(boolean lengthAsValue) {
    this.lengthAsValue = lengthAsValue;
  }

  public boolean lengthAsValue() {
    return lengthAsValue;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    return ReturnCode.INCLUDE;
  }

  @Override
  public Cell transformCell(Cell c) {
    byte[] value = Bytes.EMPTY;
    if (lengthAsValue) {
      value = new byte[4];
      Bytes.putInt(value, 0, c.valueLength());
    }
    Cell out = Cells.create(c.row(), c.family(), c.qualifier(), c.timestamp(), c.type(), value);
    out.setSeqId(c.seqId());
    return out;
  }

  @Override
  public Filter fresh() {
    return withFlags(new KeyOnlyFilter(lengthAsValue));
  }

  @Override
  public String toString() {
    return "KeyOnlyFilter(" + lengthAsValue + ")";
  }
}
