package io.bellows.scan;

import io.bellows.filter.Filter;
import io.bellows.util.Bytes;
import io.bellows.util.XxHash;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one read asks for, in the engine's terms: a row range (a get is a range of one row), the
 * families and columns, a time range {@code [minTimestamp, maxTimestamp)}, a number of versions,
 * a row limit and the read point (MVCC: cells with a larger sequence id are invisible), an optional
 * {@link Filter} (a prototype: each region scan filters with its own fresh copy) and the direction.
 * The row range is always given low to high: a reversed query returns the same rows from the highest
 * down. Built by the client API from a {@code Get} or {@code Scan}; immutable apart from the filter
 * prototype, which no one mutates.
 */
public final class ScanQuery {
  private final byte[] startRow;
  private final boolean startInclusive;
  private final byte[] stopRow;
  private final boolean stopInclusive;
  private final boolean singleRow;
  /** family -&gt; qualifiers, or family -&gt; null for all columns; empty map = all families. */
  private final NavigableMap<byte[], NavigableSet<byte[]>> columns;
  private final long minTimestamp;
  private final long maxTimestamp;
  private final int maxVersions;
  private final long limit;
  private final long readPoint;
  private final Filter filter;
  private final boolean reversed;
  private final Consistency consistency;
  private final ScanCheck check;
  private final int checkEveryRows;
  /** xxHash64 of {@link #startRow} for a get (0 otherwise): computed once, asked by every filter the get meets. */
  private final long rowHash;
  /** {@link Bytes#prefix64} of {@link #startRow} for a get (0 otherwise), for the files' key-range checks. */
  private final long rowPrefix;

  private ScanQuery(Builder b) {
    this.startRow = b.startRow;
    this.startInclusive = b.startInclusive;
    this.stopRow = b.stopRow;
    this.stopInclusive = b.stopInclusive;
    this.singleRow = b.singleRow;
    TreeMap<byte[], NavigableSet<byte[]>> cols = new TreeMap<>(Bytes::compare);
    b.columns.forEach((f, qs) -> cols.put(f, qs == null ? null : Collections.unmodifiableNavigableSet(qs)));
    this.columns = Collections.unmodifiableNavigableMap(cols);
    this.minTimestamp = b.minTimestamp;
    this.maxTimestamp = b.maxTimestamp;
    this.maxVersions = b.maxVersions;
    this.limit = b.limit;
    this.readPoint = b.readPoint;
    this.filter = b.filter;
    this.reversed = b.reversed;
    this.consistency = b.consistency;
    this.check = b.check;
    this.checkEveryRows = b.checkEveryRows;
    this.rowHash = singleRow ? XxHash.hash64(startRow, 0, startRow.length) : 0;
    this.rowPrefix = singleRow ? Bytes.prefix64(startRow, 0, startRow.length) : 0;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.startRow = startRow;
    b.startInclusive = startInclusive;
    b.stopRow = stopRow;
    b.stopInclusive = stopInclusive;
    b.singleRow = singleRow;
    columns.forEach((f, qs) -> b.columns.put(f, qs == null ? null : new TreeSet<>(qs)));
    b.minTimestamp = minTimestamp;
    b.maxTimestamp = maxTimestamp;
    b.maxVersions = maxVersions;
    b.limit = limit;
    b.readPoint = readPoint;
    b.filter = filter;
    b.reversed = reversed;
    b.consistency = consistency;
    b.check = check;
    b.checkEveryRows = checkEveryRows;
    return b;
  }

  /** First row, or empty for the start of the table. */
  public byte[] startRow() {
    return startRow;
  }

  public boolean startInclusive() {
    return startInclusive;
  }

  /** Last row bound, or empty for the end of the table. */
  public byte[] stopRow() {
    return stopRow;
  }

  public boolean stopInclusive() {
    return stopInclusive;
  }

  /** True for a get: exactly {@link #startRow()}, enabling Bloom filters. */
  public boolean isSingleRow() {
    return singleRow;
  }

  /**
   * This query narrowed to the rows from {@code start} (inclusive) to {@code end} (exclusive; empty:
   * no bound either side), its limit and everything else kept, or null if it wants none of them. A
   * query already within the range is returned as it is. A region's scans and a cluster's routing
   * of a scan to regions both use it.
   */
  public ScanQuery clippedTo(byte[] start, byte[] end) {
    if (singleRow) {
      boolean in = Bytes.compare(startRow, start) >= 0 && (end.length == 0 || Bytes.compare(startRow, end) < 0);
      return in ? this : null;
    }
    Builder b = null;
    if (start.length > 0 && Bytes.compare(startRow, start) < 0) {
      b = toBuilder().startRow(start, true);
    }
    if (end.length > 0) {
      int c = stopRow.length == 0 ? 1 : Bytes.compare(stopRow, end);
      if (c > 0 || (c == 0 && stopInclusive)) {
        b = (b == null ? toBuilder() : b).stopRow(end, false);
      }
    }
    ScanQuery out = b == null ? this : b.build();
    if (end.length > 0 && Bytes.compare(out.startRow, end) >= 0) {
      return null; // starts at or after the range's end
    }
    if (out.stopRow.length > 0) {
      int c = Bytes.compare(out.startRow, out.stopRow);
      if (c > 0 || (c == 0 && !(out.stopInclusive && out.startInclusive))) {
        return null;
      }
    }
    return out;
  }

  /**
   * For a get, the xxHash64 (seed 0) of its row: the hash of sorted files' ROW Bloom filters and of
   * the memory store's row filters and row positions, so one get hashes its row once.
   */
  public long rowHash() {
    if (!singleRow) {
      throw new IllegalStateException("only a get has one row to hash");
    }
    return rowHash;
  }

  /** For a get, the first 8 bytes of its row as a number ({@link Bytes#prefix64}), computed once. */
  public long rowPrefix() {
    if (!singleRow) {
      throw new IllegalStateException("only a get has one row");
    }
    return rowPrefix;
  }

  public NavigableMap<byte[], NavigableSet<byte[]>> columns() {
    return columns;
  }

  /** Qualifiers asked for in a family: null means all; an absent family (when some are named) means none. */
  public boolean wantsFamily(byte[] family) {
    return columns.isEmpty() || columns.containsKey(family);
  }

  /** The named qualifiers of a family, or null for all of them. */
  public NavigableSet<byte[]> qualifiers(byte[] family) {
    return columns.isEmpty() ? null : columns.get(family);
  }

  public long minTimestamp() {
    return minTimestamp;
  }

  public long maxTimestamp() {
    return maxTimestamp;
  }

  public int maxVersions() {
    return maxVersions;
  }

  /** Most rows returned; {@link Long#MAX_VALUE} for no limit. */
  public long limit() {
    return limit;
  }

  public long readPoint() {
    return readPoint;
  }

  /** The filter prototype, or null. */
  public Filter filter() {
    return filter;
  }

  /** What the scan calls every {@link #checkEveryRows()} rows it reads; {@link ScanCheck#NONE} by default. */
  public ScanCheck check() {
    return check;
  }

  public int checkEveryRows() {
    return checkEveryRows;
  }

  /** Whether rows come from the highest down; {@link #startRow()} is still the low bound. */
  public boolean reversed() {
    return reversed;
  }

  /** How fresh the read must be: {@link Consistency#STRONG} unless asked otherwise. */
  public Consistency consistency() {
    return consistency;
  }

  /** Whether a row lies in [start, stop] with the inclusive flags applied. */
  public boolean rowInRange(byte[] row, int off, int len) {
    if (startRow.length > 0) {
      int c = Bytes.compare(row, off, len, startRow, 0, startRow.length);
      if (c < 0 || (c == 0 && !startInclusive)) {
        return false;
      }
    }
    return !pastStop(row, off, len);
  }

  /** Whether a row lies beyond the stop bound (so a scan can end). */
  public boolean pastStop(byte[] row, int off, int len) {
    if (singleRow) {
      return Bytes.compare(row, off, len, startRow, 0, startRow.length) > 0;
    }
    if (stopRow.length == 0) {
      return false;
    }
    int c = Bytes.compare(row, off, len, stopRow, 0, stopRow.length);
    return c > 0 || (c == 0 && !stopInclusive);
  }

  /** Builder with HBase's defaults: whole table, all columns, all time, one version, no limit. */
  public static final class Builder {
    private byte[] startRow = Bytes.EMPTY;
    private boolean startInclusive = true;
    private byte[] stopRow = Bytes.EMPTY;
    private boolean stopInclusive = false;
    private boolean singleRow;
    private final Map<byte[], NavigableSet<byte[]>> columns = new TreeMap<>(Bytes::compare);
    private long minTimestamp = 0;
    private long maxTimestamp = Long.MAX_VALUE;
    private int maxVersions = 1;
    private long limit = Long.MAX_VALUE;
    private long readPoint = Long.MAX_VALUE;
    private Filter filter;
    private boolean reversed;
    private Consistency consistency = Consistency.STRONG;
    private ScanCheck check = ScanCheck.NONE;
    private int checkEveryRows = 1;

    /** Calls {@code check} every {@code everyRows} rows read (filtered-out ones included); it throws to end the scan. */
    public Builder check(ScanCheck check, int everyRows) {
      if (check == null || everyRows < 1) {
        throw new IllegalArgumentException("a scan check needs a check and a period of at least 1 row");
      }
      this.check = check;
      this.checkEveryRows = everyRows;
      return this;
    }

    /** Rows and cells must also pass this filter (null for none). */
    public Builder filter(Filter f) {
      this.filter = f;
      return this;
    }

    /** Rows from the highest of the range down. */
    public Builder reversed(boolean r) {
      this.reversed = r;
      return this;
    }

    /** {@link Consistency#TIMELINE}: any replica may answer from its own state (a cluster's stale read). */
    public Builder consistency(Consistency c) {
      if (c == null) {
        throw new IllegalArgumentException("a read's consistency must not be null");
      }
      this.consistency = c;
      return this;
    }

    public Builder startRow(byte[] row, boolean inclusive) {
      this.startRow = row;
      this.startInclusive = inclusive;
      return this;
    }

    public Builder stopRow(byte[] row, boolean inclusive) {
      this.stopRow = row;
      this.stopInclusive = inclusive;
      return this;
    }

    /** A get of exactly this row. */
    public Builder singleRow(byte[] row) {
      this.startRow = row;
      this.startInclusive = true;
      this.stopRow = row;
      this.stopInclusive = true;
      this.singleRow = true;
      return this;
    }

    public Builder addFamily(byte[] family) {
      columns.put(family, null);
      return this;
    }

    public Builder addColumn(byte[] family, byte[] qualifier) {
      if (columns.containsKey(family) && columns.get(family) == null) {
        return this; // whole family already asked for
      }
      columns.computeIfAbsent(family, f -> new TreeSet<>(Bytes::compare)).add(qualifier);
      return this;
    }

    public Builder timeRange(long min, long maxExclusive) {
      if (min < 0 || maxExclusive < min) {
        throw new IllegalArgumentException("bad time range [" + min + ", " + maxExclusive + ")");
      }
      this.minTimestamp = min;
      this.maxTimestamp = maxExclusive;
      return this;
    }

    public Builder maxVersions(int v) {
      if (v < 1) {
        throw new IllegalArgumentException("max versions must be at least 1, not " + v);
      }
      this.maxVersions = v;
      return this;
    }

    public Builder limit(long rows) {
      if (rows < 1) {
        throw new IllegalArgumentException("limit must be at least 1, not " + rows);
      }
      this.limit = rows;
      return this;
    }

    public Builder readPoint(long rp) {
      this.readPoint = rp;
      return this;
    }

    public ScanQuery build() {
      return new ScanQuery(this);
    }
  }
}
