package io.bellows.engine;

import io.bellows.cell.Cell;
import io.bellows.client.Bellows;
import io.bellows.config.EngineOptions;
import io.bellows.fs.FileSystem;
import java.nio.file.Path;
import java.util.List;

/**
 * Where a model or metamorphic suite ({@link EngineModelTest}, {@code metamorphic.MetamorphicTest})
 * runs the engine it checks: one embedded engine on a directory (the suites' own configuration,
 * {@link #local}), or a replicated cluster of members (bellows-client's {@code Replicated*} suites).
 * The suite drives the same operations through the {@link Bellows} handle either way; this says how
 * that handle is opened and reopened, which operations the engine has, what time it stamps by, and
 * what each replica holds at the end.
 */
public interface EngineUnderTest extends AutoCloseable {
  /**
   * Opens the engine with {@code options} (its clock is the suite's manual clock): the first time,
   * or again after {@link #reopen}.
   */
  Bellows open(EngineOptions options);

  /**
   * Closes {@code db} and opens the engine again on what it left (its files, or the members'
   * directories and logs), as the suite's "close + reopen" operation.
   */
  default Bellows reopen(Bellows db, EngineOptions options) {
    db.close();
    return open(options);
  }

  /**
   * The time the engine stamps {@code LATEST} cells and expires cells by, now: the suite's clock
   * on one engine; on a cluster, the clock of the replica that leads, which a leadership may have
   * moved ahead of its host's (see docs/design/cluster.md, "Timestamps across leaders").
   */
  default long now(long suiteClock) {
    return suiteClock;
  }

  /** Whether the engine splits regions (explicitly, by size, pre-split at creation). */
  default boolean splits() {
    return true;
  }

  /** Whether the engine runs major compactions (which stop dropped tombstones masking later writes). */
  default boolean majorCompactions() {
    return true;
  }

  /**
   * What each replica of the table holds once every member has applied everything: all versions
   * of every row a full read returns, read on that replica alone at its own time. Empty for one
   * engine (the suite reads it already).
   */
  default List<ReplicaCells> replicas(String table) {
    return List.of();
  }

  /** Stops whatever {@link #open} started beyond the handle (members); the handle is closed by the suite. */
  @Override
  default void close() {}

  /** One replica's rows ({@code rows}: each row's cells), read at time {@code now} (see {@link #now}). */
  record ReplicaCells(String name, long now, List<List<Cell>> rows) {}

  /** One embedded engine on {@code dir} (the local disk). */
  static EngineUnderTest local(Path dir) {
    return options -> Bellows.open(dir, options);
  }

  /** One embedded engine on {@code dir} over {@code fs}. */
  static EngineUnderTest local(Path dir, FileSystem fs) {
    return options -> Bellows.open(dir, options, fs);
  }
}
