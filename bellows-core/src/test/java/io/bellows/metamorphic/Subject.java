package io.bellows.metamorphic;

import io.bellows.client.Bellows;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.engine.EngineUnderTest;
import io.bellows.engine.RegionInfo;
import io.bellows.fs.FileSystem;
import io.bellows.util.Clock;
import io.bellows.util.StorageException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * One engine under one {@link Configuration}, in its own directory (or a cluster's members: {@link
 * EngineUnderTest}), with a manual clock that only the operations move. Not thread-safe (one test
 * thread drives it; the engine's background threads flush and compact on their own).
 */
final class Subject implements AutoCloseable {
  /** Explicit splits stop at this many regions, so that regions keep holding several rows. */
  private static final int MAX_REGIONS = 8;

  private final Configuration config;
  private final EngineUnderTest engine;
  private final Clock.Manual clock;
  /** Whether the engine runs on a file system with injected faults. */
  private final boolean faulty;
  private Bellows db;
  private Table table;

  Subject(Configuration config, Path dir, long startMillis) {
    this(config, dir, startMillis, null);
  }

  /**
   * With {@code faulty}, the engine runs on that file system, whose faults must change no answer:
   * a flush, compaction or split that meets one is made again (the engine retries them in the
   * background too; none of them changes what reads see).
   */
  Subject(Configuration config, Path dir, long startMillis, FileSystem faulty) {
    this(config, faulty == null ? EngineUnderTest.local(dir) : EngineUnderTest.local(dir, faulty), startMillis,
        faulty != null);
  }

  /** On {@code engine} (a cluster's members, or one engine); {@code faulty} as above. */
  Subject(Configuration config, EngineUnderTest engine, long startMillis, boolean faulty) {
    this.config = config;
    this.engine = engine;
    this.faulty = faulty;
    this.clock = new Clock.Manual(startMillis);
    db = engine.open(options());
    db.createTable(config.table(), engine.splits() ? config.regions().splitKeys() : List.of());
    table = db.getTable(Configuration.TABLE);
  }

  private EngineOptions options() {
    EngineOptions.Builder b = EngineOptions.builder().clock(clock)
        // Durability across crashes is CrashRecoveryTest's concern; this test closes cleanly.
        .set(Knobs.DEFAULT_DURABILITY, Durability.ASYNC_WAL);
    config.engine(b);
    return b.build();
  }

  /**
   * Runs a flush, compaction or split; with faults, one that failed on an injected fault is made
   * again, up to {@link #MAINTAIN_ATTEMPTS} times in all (each fault fires once, and one operation
   * writes several files, so two can meet the same operation).
   */
  void maintain(Runnable work) {
    for (int attempt = 1; ; attempt++) {
      try {
        work.run();
        return;
      } catch (StorageException e) {
        if (!faulty || attempt == MAINTAIN_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  private static final int MAINTAIN_ATTEMPTS = 6;

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
    try {
      db = engine.reopen(db, options());
    } catch (StorageException e) {
      if (!faulty) {
        throw e;
      }
      // a flush at close met a fault: what it did not write is in the log, replayed at the open
      db = engine.open(options());
    }
    table = db.getTable(Configuration.TABLE);
  }

  /**
   * Flushes, then compacts every file of every store into one under the major rules (tombstones
   * dropped), unless the engine has no major compaction: then the flush alone, and every subject the
   * run is compared with must leave it out too (a major compaction changes later answers).
   */
  void majorCompact() {
    maintain(() -> db.flush(Configuration.TABLE));
    if (engine.majorCompactions()) {
      maintain(() -> db.majorCompact(Configuration.TABLE));
    }
  }

  /** What each replica holds at the end ({@link EngineUnderTest#replicas}); empty for one engine. */
  List<EngineUnderTest.ReplicaCells> replicas() {
    return engine.replicas(Configuration.TABLE);
  }

  /**
   * Splits at {@code row} when that makes a new region: not when the row already starts one (a
   * pre-split table, an earlier split or a split by size) and not past {@link #MAX_REGIONS}.
   */
  void split(byte[] row) {
    if (!engine.splits()) {
      return; // left out: the engine under test does not split (splits change no answer)
    }
    List<RegionInfo> regions = db.regions(Configuration.TABLE);
    if (regions.size() >= MAX_REGIONS || regions.stream().anyMatch(r -> Arrays.equals(r.startKey(), row))) {
      return;
    }
    try {
      maintain(() -> db.split(Configuration.TABLE, row));
    } catch (IllegalArgumentException e) {
      // A split by size in the background made the row a region's start meanwhile.
      if (db.regions(Configuration.TABLE).stream().noneMatch(r -> Arrays.equals(r.startKey(), row))) {
        throw e;
      }
    }
  }

  @Override
  public void close() {
    try {
      db.close();
    } catch (StorageException e) {
      if (!faulty) {
        throw e;
      }
    } finally {
      engine.close();
    }
  }
}
