package io.bellows.metamorphic;

import io.bellows.client.Bellows;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.engine.RegionInfo;
import io.bellows.util.Clock;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * One engine under one {@link Configuration}, in its own directory, with a manual clock that only
 * the operations move. Not thread-safe (one test thread drives it; the engine's background threads
 * flush and compact on their own).
 */
final class Subject implements AutoCloseable {
  /** Explicit splits stop at this many regions, so that regions keep holding several rows. */
  private static final int MAX_REGIONS = 8;

  private final Configuration config;
  private final Path dir;
  private final Clock.Manual clock;
  private Bellows db;
  private Table table;

  Subject(Configuration config, Path dir, long startMillis) {
    this.config = config;
    this.dir = dir;
    this.clock = new Clock.Manual(startMillis);
    db = open();
    db.createTable(config.table(), config.regions().splitKeys());
    table = db.getTable(Configuration.TABLE);
  }

  private Bellows open() {
    EngineOptions.Builder b = EngineOptions.builder().clock(clock)
        // Durability across crashes is CrashRecoveryTest's concern; this test closes cleanly.
        .set(Knobs.DEFAULT_DURABILITY, Durability.ASYNC_WAL);
    config.engine(b);
    return Bellows.open(dir, b.build());
  }

  Bellows db() {
    return db;
  }

  Table table() {
    return table;
  }

  Clock.Manual clock() {
    return clock;
  }

  void reopen() {
    db.close();
    db = open();
    table = db.getTable(Configuration.TABLE);
  }

  /**
   * Splits at {@code row} when that makes a new region: not when the row already starts one (a
   * pre-split table, an earlier split or a split by size) and not past {@link #MAX_REGIONS}.
   */
  void split(byte[] row) {
    List<RegionInfo> regions = db.regions(Configuration.TABLE);
    if (regions.size() >= MAX_REGIONS || regions.stream().anyMatch(r -> Arrays.equals(r.startKey(), row))) {
      return;
    }
    try {
      db.split(Configuration.TABLE, row);
    } catch (IllegalArgumentException e) {
      // A split by size in the background made the row a region's start meanwhile.
      if (db.regions(Configuration.TABLE).stream().noneMatch(r -> Arrays.equals(r.startKey(), row))) {
        throw e;
      }
    }
  }

  @Override
  public void close() {
    db.close();
  }
}
