package io.bellows.filter;

import io.bellows.cell.Cell;
import io.bellows.util.Bytes;

/**
 * Keeps the rows whose given column's value passes the comparison. A row without the column is
 * kept unless {@code filterIfMissing}; with {@code latestVersionOnly} (the default) only the newest
 * returned version is tested, else any returned version may pass. The tested column must be among
 * the columns the query returns, as in HBase.
 */
public final class SingleColumnValueFilter extends CompareFilter {
  private final byte[] family;
  private final byte[] qualifier;
  private boolean filterIfMissing;
  private boolean latestVersionOnly = true;
  private boolean foundColumn;
  private boolean matchedColumn;

  public SingleColumnValueFilter(byte[] family, byte[] qualifier, CompareOperator op, ByteComparator comparator) {
    super(op, comparator);
    this.family = family.clone();
    this.qualifier = qualifier == null ? Bytes.EMPTY : qualifier.clone();
  }

  public SingleColumnValueFilter setFilterIfMissing(boolean v) {
    this.filterIfMissing = v;
    return this;
  }

  public SingleColumnValueFilter setLatestVersionOnly(boolean v) {
    this.latestVersionOnly = v;
    return this;
  }

  public byte[] family() {
    return family.clone();
  }

  public byte[] qualifier() {
    return qualifier.clone();
  }

  public boolean filterIfMissing() {
    return filterIfMissing;
  }

  public boolean latestVersionOnly() {
    return latestVersionOnly;
  }

  @Override
  public void reset() {
    foundColumn = false;
    matchedColumn = false;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    if (matchedColumn) {
      return ReturnCode.INCLUDE;
    }
    if (latestVersionOnly && foundColumn) {
      return ReturnCode.NEXT_ROW; // the newest version was tested and failed
    }
    if (!Bytes.equals(c.array(), c.familyOffset(), c.familyLength(), family, 0, family.length)
        || !Bytes.equals(c.array(), c.qualifierOffset(), c.qualifierLength(), qualifier, 0, qualifier.length)) {
      return ReturnCode.INCLUDE;
    }
    foundColumn = true;
    if (!valuePasses(c)) {
      return latestVersionOnly ? ReturnCode.NEXT_ROW : ReturnCode.INCLUDE;
    }
    matchedColumn = true;
    return ReturnCode.INCLUDE;
  }

  @Override
  public boolean hasFilterRow() {
    return true;
  }

  @Override
  public boolean filterRow() {
    return foundColumn ? !matchedColumn : filterIfMissing;
  }

  @Override
  public Filter fresh() {
    return withFlags(new SingleColumnValueFilter(family, qualifier, op, comparator)
        .setFilterIfMissing(filterIfMissing).setLatestVersionOnly(latestVersionOnly));
  }

  @Override
  public String toString() {
    return "SingleColumnValueFilter(" + Bytes.toStringBinary(family) + ":" + Bytes.toStringBinary(qualifier) + ", "
        + op + ", " + comparator + (filterIfMissing ? ", ifMissing" : "") + (latestVersionOnly ? "" : ", anyVersion")
        + ")";
  }
}
