package io.bellows.filter;

import io.bellows.cell.Cell;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** Keeps the cells whose qualifier starts with any of the prefixes. */
public final class MultipleColumnPrefixFilter extends Filter {
  private final TreeSet<byte[]> prefixes = new TreeSet<>(Bytes::compare);

  public MultipleColumnPrefixFilter(List<byte[]> prefixes) {
    for (byte[] p : prefixes) {
      this.prefixes.add(p.clone());
    }
  }

  public List<byte[]> prefixes() {
    return new ArrayList<>(prefixes);
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    boolean laterMayMatch = false;
    for (byte[] p : prefixes) {
      int qlen = c.qualifierLength();
      int n = Math.min(qlen, p.length);
      int cmp = Bytes.compare(c.array(), c.qualifierOffset(), n, p, 0, n);
      if (cmp == 0 && qlen >= p.length) {
        return ReturnCode.INCLUDE;
      }
      if (cmp <= 0) {
        laterMayMatch = true;
      }
    }
    return laterMayMatch ? ReturnCode.SKIP : ReturnCode.NEXT_ROW;
  }

  @Override
  public Filter fresh() {
    return withFlags(new MultipleColumnPrefixFilter(prefixes()));
  }

  @Override
  public String toString() {
    return "MultipleColumnPrefixFilter(" + prefixes.size() + " prefixes)";
  }
}
