package io.bellows.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * A configuration of {@code bench read}: a block layout and whether the cache of whole rows is on —
 * Bellows' KV cache ({@code +KVC}, the paper's notation) or RocksDB's row cache ({@code +rowcache}).
 * Both take {@link #ROW_CACHE_BYTES} out of the same cache budget. A Bellows layout may also keep
 * its data blocks in the off-heap L2 ({@code @L2}, e.g. {@code 64KB/S@L2}), where gets read them in
 * place: without the KV cache the whole budget is L2's; with it ({@code 64KB/S+KVC@L2}) an L1 of
 * {@link #KV_L1_BYTES} holds the KV cache alone and L2 the rest. Not in the default suite. Immutable.
 */
record ReadConfig(ReadLayout layout, boolean rowCache, boolean offHeap) {
  /** Bellows' KV cache starts at 10 MiB of its L1; RocksDB's row cache gets as much. */
  static final long ROW_CACHE_BYTES = 10L << 20;
  /** With {@code +KVC@L2}: L1's size, all of it the KV cache's to grow into (up to 0.9 of it). */
  static final long KV_L1_BYTES = 2 * ROW_CACHE_BYTES;

  static final List<ReadConfig> ALL = all();
  /** {@link #ALL} and the {@code @L2} variants. */
  private static final List<ReadConfig> PARSEABLE = parseable();
  static final String DEFAULT_SUITE = String.join(",", ALL.stream().map(ReadConfig::label).toList());

  ReadConfig(ReadLayout layout, boolean rowCache) {
    this(layout, rowCache, false);
  }

  String label() {
    return layout.label + (rowCache ? (layout.isRocksDb() ? "+rowcache" : "+KVC") : "") + (offHeap ? "@L2" : "");
  }

  boolean isRocksDb() {
    return layout.isRocksDb();
  }

  static ReadConfig parse(String label) {
    for (ReadConfig c : PARSEABLE) {
      if (c.label().equalsIgnoreCase(label.trim())) {
        return c;
      }
    }
    throw new IllegalArgumentException("unknown configuration '" + label + "'; known: " + DEFAULT_SUITE);
  }

  /** A comma-separated list, in the order given, without repeats. */
  static List<ReadConfig> parseList(String list) {
    LinkedHashSet<ReadConfig> out = new LinkedHashSet<>();
    for (String s : list.split(",")) {
      if (!s.isBlank()) {
        out.add(parse(s));
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no configuration given");
    }
    return List.copyOf(out);
  }

  private static List<ReadConfig> parseable() {
    List<ReadConfig> l = new ArrayList<>(ALL);
    for (ReadLayout layout : ReadLayout.values()) {
      if (!layout.isRocksDb()) {
        l.add(new ReadConfig(layout, false, true));
        l.add(new ReadConfig(layout, true, true));
      }
    }
    return List.copyOf(l);
  }

  private static List<ReadConfig> all() {
    List<ReadConfig> l = new ArrayList<>();
    for (ReadLayout layout : ReadLayout.values()) {
      l.add(new ReadConfig(layout, false));
      l.add(new ReadConfig(layout, true));
    }
    return List.copyOf(l);
  }
}
