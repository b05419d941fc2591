package io.bellows.store;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.scan.ScanQuery;
import io.bellows.util.Bytes;
import java.util.List;
import java.util.NavigableSet;

/**
 * What a get of named columns has found so far, for reading its sources newest first and stopping
 * early (docs/design/scan.md, "Gets: newest first"): per column the {@code VERSIONS} newest distinct
 * timestamps of the puts the reader may see.
 *
 * <p>{@link #answeredAbove(long) answeredAbove(t)} holds when every column has {@code VERSIONS}
 * such timestamps above {@code t}. Once every source newer than {@code t} is read, a source whose
 * cells are all at or below {@code t} can change nothing (the definition's steps, docs/design/scan.md):
 * an older put {@code x} of the column either ranks below {@code VERSIONS} unmasked versions
 * (step 4: gone for good), or one of the versions found is masked by a tombstone newer than
 * {@code t} — read already, since it is newer — which masks {@code x} too (step 2); the older
 * source's tombstones reach only timestamps at or below {@code t}; a deleted version keeps its
 * slot (step 5); TTL and the query's time range and version count apply after (steps 6, 7).
 *
 * <p>Cells it is not given (a wide row read in place) only make it answer later. Not thread-safe;
 * one get.
 */
final class FoundVersions {
  private final byte[][] qualifiers;
  private final long readPoint;
  private final int versions;
  /** Per column, the newest distinct put timestamps seen, newest first; {@code counts[i]} of them. */
  private final long[][] newest;
  private final int[] counts;

  private FoundVersions(NavigableSet<byte[]> qualifiers, long readPoint, int versions) {
    this.qualifiers = qualifiers.toArray(new byte[0][]);
    this.readPoint = readPoint;
    this.versions = versions;
    this.newest = new long[this.qualifiers.length][versions];
    this.counts = new int[this.qualifiers.length];
  }

  /**
   * For a get that names its columns of {@code family} (the set is sorted by {@link Bytes#compare},
   * as {@link ScanQuery} keeps it); null when it reads the whole family, whose columns no source
   * can be known to lack.
   */
  static FoundVersions of(ScanQuery query, byte[] family, int versions) {
    NavigableSet<byte[]> q = query.qualifiers(family);
    return q == null || q.isEmpty() || versions < 1 ? null : new FoundVersions(q, query.readPoint(), versions);
  }

  /** Takes in the row's cells one source returned. */
  void add(List<Cell> cells) {
    for (int i = 0, n = cells.size(); i < n; i++) {
      add(cells.get(i));
    }
  }

  private void add(Cell c) {
    if (c.typeCode() == CellType.PUT.code() && c.seqId() <= readPoint) {
      int col = column(c);
      if (col >= 0) {
        keep(col, c.timestamp());
      }
    }
  }

  /** Adds {@code ts} to the column's newest distinct timestamps if it is among them. */
  private void keep(int col, long ts) {
    long[] kept = newest[col];
    int n = counts[col];
    int i = 0;
    while (i < n && kept[i] > ts) {
      i++;
    }
    if ((i < n && kept[i] == ts) || i == versions) {
      return; // already there, or older than all the kept ones
    }
    int last = Math.min(n, versions - 1);
    System.arraycopy(kept, i, kept, i + 1, last - i);
    kept[i] = ts;
    counts[col] = Math.min(n + 1, versions);
  }

  private int column(Cell c) {
    byte[] a = c.array();
    int off = c.qualifierOffset();
    int len = c.qualifierLength();
    int lo = 0;
    int hi = qualifiers.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int cmp = Bytes.compare(qualifiers[mid], 0, qualifiers[mid].length, a, off, len);
      if (cmp < 0) {
        lo = mid + 1;
      } else if (cmp > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -1;
  }

  /**
   * Whether sources whose newest timestamp is {@code timestamp} or older can no longer change the
   * get's answer, provided every source newer than that has been taken in.
   */
  boolean answeredAbove(long timestamp) {
    if (timestamp == Long.MAX_VALUE) {
      return false;
    }
    for (int col = 0; col < qualifiers.length; col++) {
      if (counts[col] < versions || newest[col][versions - 1] <= timestamp) {
        return false;
      }
    }
    return true;
  }
}
