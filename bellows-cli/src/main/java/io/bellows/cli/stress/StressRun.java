package io.bellows.cli.stress;

import io.bellows.client.Bellows;
import io.bellows.config.EngineOptions;
import io.bellows.config.KnobAssignments;
import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One process's part of a stress run: opens the store of the stress directory (creating it and its
 * table at first), verifies every key against the expected state, runs the workload, and closes.
 */
public final class StressRun {
  static final String TABLE = "stress";
  static final String STORE = "db";
  static final String EXPECTED = "expected.state";

  private StressRun() {}

  /**
   * Checks that {@code dir} is a new (missing or empty) directory or one a stress run made, and
   * creates it; the message of the exception says what is wrong.
   */
  static void prepare(Path dir) throws IOException {
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new IllegalArgumentException(dir + " is a file, not a directory");
    }
    if (Files.isDirectory(dir)) {
      boolean stress = Files.exists(dir.resolve(EXPECTED));
      try (var list = Files.list(dir)) {
        if (!stress && list.findAny().isPresent()) {
          throw new IllegalArgumentException(dir + " is neither empty nor a stress directory (it has no "
              + EXPECTED + "); give a new directory: stress writes and rewrites everything in it");
        }
      }
    }
    Files.createDirectories(dir);
  }

  static Bellows open(StressConfig config) {
    return open(config, LocalFileSystem.INSTANCE);
  }

  /** Opens (creating at first) the stress table's store on {@code fs}. */
  static Bellows open(StressConfig config, FileSystem fs) {
    EngineOptions.Builder options = EngineOptions.builder();
    TableDescriptor.Builder table = TableDescriptor.builder(TABLE).durability(config.durability());
    ColumnFamilyDescriptor.Builder family = ColumnFamilyDescriptor.builder(StressRows.FAMILY_NAME);
    KnobAssignments knobs;
    try {
      knobs = KnobAssignments.of(config.settings());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--set " + e.getMessage(), e);
    }
    knobs.applyTo(options);
    knobs.applyTo(table);
    knobs.applyTo(family);
    Bellows db = Bellows.open(config.dir().resolve(STORE), options.build(), fs);
    try {
      if (!db.tableExists(TABLE)) {
        db.createTable(table.family(family.build()).build());
      }
      return db;
    } catch (RuntimeException e) {
      db.close();
      throw e;
    }
  }

  /** Opens the store, verifies it, runs the workload until the deadline, closes. */
  static void runOnce(StressConfig config, ExpectedState expected, StressCounters counters, long deadlineNanos,
      PrintStream out, boolean child) throws InterruptedException {
    StressRows rows = new StressRows(config.columns(), config.valueSize());
    try (Bellows db = open(config)) {
      StressVerifier.verifyAll(db.getTable(TABLE), expected, rows, counters);
      if (child) {
        out.println("RUNNING");
        out.flush();
      }
      new StressWorkload(db, expected, rows, counters).run(config.threads(), config.seed(), deadlineNanos);
    }
  }
}
