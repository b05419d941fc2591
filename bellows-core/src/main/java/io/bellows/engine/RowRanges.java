package io.bellows.engine;

import io.bellows.scan.ScanQuery;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;

/**
 * A table's regions as row ranges, for whoever routes rows to them without holding the regions: a
 * cluster's member over its replicas, a client over a cluster's region leaders. Regions are given
 * by their start keys in key order (the first empty), each ending where the next starts (the last
 * unbounded), as a table's regions always are.
 */
public final class RowRanges {
  private final List<byte[]> starts;
  private final List<byte[]> ends;

  private RowRanges(List<byte[]> starts) {
    if (starts.isEmpty() || starts.get(0).length != 0) {
      throw new IllegalArgumentException("a table's first region starts at the empty key");
    }
    for (int i = 1; i < starts.size(); i++) {
      if (Bytes.compare(starts.get(i - 1), starts.get(i)) >= 0) {
        throw new IllegalArgumentException("region start keys must be strictly increasing: '"
            + Bytes.toStringBinary(starts.get(i)) + "' after '" + Bytes.toStringBinary(starts.get(i - 1)) + "'");
      }
    }
    this.starts = List.copyOf(starts);
    List<byte[]> e = new ArrayList<>(starts.size());
    for (int i = 1; i < starts.size(); i++) {
      e.add(starts.get(i));
    }
    e.add(Bytes.EMPTY);
    this.ends = List.copyOf(e);
  }

  /** The ranges of regions starting at {@code starts} (the first empty, strictly increasing). */
  public static RowRanges ofStarts(List<byte[]> starts) {
    return new RowRanges(starts);
  }

  /** The ranges of the regions a table pre-split at {@code splitKeys} has ({@link SplitKeys}). */
  public static RowRanges ofSplitKeys(List<byte[]> splitKeys) {
    List<byte[]> starts = new ArrayList<>(splitKeys.size() + 1);
    starts.add(Bytes.EMPTY);
    starts.addAll(splitKeys);
    return new RowRanges(starts);
  }

  public int size() {
    return starts.size();
  }

  public byte[] start(int i) {
    return starts.get(i);
  }

  /** Where region {@code i} ends (exclusive); empty for the last, unbounded. */
  public byte[] end(int i) {
    return ends.get(i);
  }

  /** The index of the region holding {@code row}. */
  public int indexOf(byte[] row) {
    int lo = 0;
    int hi = starts.size() - 1;
    while (lo < hi) { // the last region whose start is at or before the row
      int mid = (lo + hi + 1) >>> 1;
      if (Bytes.compare(starts.get(mid), row) <= 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /**
   * The indexes of the regions a query reads, in the order it reads them (from the last down for a
   * reversed query); the region of its start row alone when its range is empty (that region answers
   * it, with nothing).
   */
  public List<Integer> wanted(ScanQuery q) {
    List<Integer> out = new ArrayList<>();
    if (q.isSingleRow()) {
      out.add(indexOf(q.startRow()));
      return out;
    }
    for (int i = 0; i < starts.size(); i++) {
      if (within(q, i) != null) {
        out.add(i);
      }
    }
    if (out.isEmpty()) {
      out.add(indexOf(q.startRow()));
    }
    if (q.reversed()) {
      java.util.Collections.reverse(out);
    }
    return out;
  }

  /**
   * The query narrowed to region {@code i}'s rows (its limit kept), or null if it wants none of them.
   * A query already within the region is returned as it is.
   */
  public ScanQuery within(ScanQuery q, int i) {
    return q.clippedTo(starts.get(i), ends.get(i));
  }
}
