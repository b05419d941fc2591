package io.bellows.cache;

import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Hit, miss and eviction counters and bytes held of one cache level, by block kind. Thread-safe,
 * contention-free ({@link LongAdder}).
 */
final class CacheStats {
  private final String level;
  private final LongAdder[] hits = adders();
  private final LongAdder[] misses = adders();
  private final LongAdder[] evictions = adders();
  private final LongAdder[] bytes = adders();

  /** @param level the metric prefix, {@code l1} or {@code l2} */
  CacheStats(String level) {
    this.level = level;
  }

  private static LongAdder[] adders() {
    LongAdder[] a = new LongAdder[BlockKind.values().length];
    for (int i = 0; i < a.length; i++) {
      a[i] = new LongAdder();
    }
    return a;
  }

  void hit(BlockKind k) {
    hits[k.ordinal()].increment();
  }

  void miss(BlockKind k) {
    misses[k.ordinal()].increment();
  }

  void evicted(BlockKind k) {
    evictions[k.ordinal()].increment();
  }

  /** Bytes of blocks of a kind entering ({@code n > 0}) or leaving ({@code n < 0}) the level. */
  void held(BlockKind k, long n) {
    bytes[k.ordinal()].add(n);
  }

  long bytes(BlockKind k) {
    return bytes[k.ordinal()].sum();
  }

  long hits(BlockKind k) {
    return hits[k.ordinal()].sum();
  }

  long misses(BlockKind k) {
    return misses[k.ordinal()].sum();
  }

  long evictions(BlockKind k) {
    return evictions[k.ordinal()].sum();
  }

  /**
   * Adds {@code cache.<level>.<kind>.hits|misses|evictions|hit.ratio|bytes} for every kind and the level's
   * totals {@code cache.<level>.hits|misses|evictions|hit.ratio} to {@code out}.
   */
  void addTo(Map<String, Number> out) {
    long th = 0;
    long tm = 0;
    long te = 0;
    for (BlockKind k : BlockKind.values()) {
      String p = "cache." + level + "." + k.metricName() + ".";
      long h = hits(k);
      long m = misses(k);
      long e = evictions(k);
      out.put(p + "hits", h);
      out.put(p + "misses", m);
      out.put(p + "evictions", e);
      out.put(p + "hit.ratio", ratio(h, m));
      out.put(p + "bytes", bytes(k));
      th += h;
      tm += m;
      te += e;
    }
    String p = "cache." + level + ".";
    out.put(p + "hits", th);
    out.put(p + "misses", tm);
    out.put(p + "evictions", te);
    out.put(p + "hit.ratio", ratio(th, tm));
  }

  private static double ratio(long hits, long misses) {
    return hits + misses == 0 ? 0.0 : (double) hits / (hits + misses);
  }
}
