package io.bellows.client;

import io.bellows.filter.Filter;
import io.bellows.scan.Consistency;
import io.bellows.util.Bytes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;

/** What {@link Get} and {@link Scan} share: columns, time range, versions and a filter. */
public abstract class Query<Q extends Query<Q>> {
  /** family -&gt; qualifiers (null = whole family). Empty = every family. */
  final Map<String, NavigableSet<byte[]>> columns = new LinkedHashMap<>();
  long minTimestamp = 0;
  long maxTimestamp = Long.MAX_VALUE;
  int maxVersions = 1;
  Filter filter;
  Consistency consistency = Consistency.STRONG;

  @SuppressWarnings("unchecked")
  private Q self() {
    return (Q) this;
  }

  public Q addFamily(byte[] family) {
    Mutation.checkFamily(family);
    columns.put(Bytes.str(family), null);
    return self();
  }

  public Q addColumn(byte[] family, byte[] qualifier) {
    Mutation.checkFamily(family);
    String f = Bytes.str(family);
    if (columns.containsKey(f) && columns.get(f) == null) {
      return self();
    }
    columns.computeIfAbsent(f, k -> new TreeSet<>(Bytes::compare)).add(Mutation.nonNull(qualifier));
    return self();
  }

  /** Only versions with timestamp in [min, max). */
  public Q setTimeRange(long min, long max) {
    if (min < 0 || max < min) {
      throw new IllegalArgumentException("bad time range [" + min + ", " + max + ")");
    }
    this.minTimestamp = min;
    this.maxTimestamp = max;
    return self();
  }

  /** Only the version with exactly this timestamp. */
  public Q setTimestamp(long ts) {
    if (ts < 0 || ts == Long.MAX_VALUE) {
      throw new IllegalArgumentException("bad timestamp " + ts);
    }
    return setTimeRange(ts, ts + 1);
  }

  /** Up to n versions per column (capped by the family's VERSIONS). */
  public Q readVersions(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("versions must be at least 1, not " + n);
    }
    this.maxVersions = n;
    return self();
  }

  public Q readAllVersions() {
    return readVersions(Integer.MAX_VALUE);
  }

  /**
   * Rows and cells must also pass this filter, evaluated inside the engine after versions, deletes,
   * TTL and time range (see {@link Filter} for the order of the calls); null for none.
   */
  public Q setFilter(Filter f) {
    this.filter = f;
    return self();
  }

  public Filter filter() {
    return filter;
  }

  /**
   * {@link Consistency#TIMELINE}: over a cluster, any replica of the region may answer from its own
   * state, possibly behind the latest writes ({@link Result#isStale()} says so); the default, {@link
   * Consistency#STRONG}, sees every write acknowledged before the read. One engine is never stale.
   */
  public Q setConsistency(Consistency c) {
    if (c == null) {
      throw new IllegalArgumentException("a read's consistency must not be null");
    }
    this.consistency = c;
    return self();
  }

  public Consistency consistency() {
    return consistency;
  }

  /** family -&gt; qualifiers (null = whole family); empty = all families. */
  public Map<String, NavigableSet<byte[]>> columns() {
    return columns;
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
}
