package io.bellows.cli.shell;

import io.bellows.client.Bellows;
import io.bellows.client.Table;
import io.bellows.engine.RegionInfo;
import io.bellows.schema.TableDescriptor;
import java.util.List;
import java.util.Map;

/**
 * The engine operations the shell uses, as an interface so that commands can be exercised against a
 * stand-in as well as a real {@link Bellows}. Implementations must be usable from one thread at a
 * time at least (the shell is single-threaded).
 */
public interface Engine extends AutoCloseable {
  void createTable(TableDescriptor descriptor);

  /** Creates a table pre-split at the given keys (sorted, distinct, non-empty). */
  void createTable(TableDescriptor descriptor, List<byte[]> splitKeys);

  /** The table's regions in key order, with their sizes. */
  List<RegionInfo> regions(String table);

  TableDescriptor describeTable(String name);

  List<String> listTables();

  boolean tableExists(String name);

  void disableTable(String name);

  void enableTable(String name);

  boolean isTableEnabled(String name);

  void dropTable(String name);

  Table getTable(String name);

  void flush(String table);

  void compact(String table);

  void majorCompact(String table);

  /** Splits the region holding the most data at its middle key. */
  void split(String table);

  /** Splits the region holding {@code splitKey} at it. */
  void split(String table, byte[] splitKey);

  Map<String, Number> metrics();

  /** The failing background work that matters most (writes stopped first), if any. */
  java.util.Optional<io.bellows.util.BackgroundError> backgroundError();

  /** Retries failing flushes and compactions now; throws if writes are still stopped afterwards. */
  void resume();

  /** Checks every file online (a scrub); see {@code Bellows.verify()}. */
  io.bellows.engine.VerifyReport verify();

  Map<String, Map<String, Number>> storeMetrics(String table);

  /** Changes a table's settings and families, online (see {@code Bellows.modifyTable}). */
  void modifyTable(TableDescriptor next);

  /** Loads sorted files, by family, into a table atomically; returns the cells loaded. */
  long bulkLoad(String table, Map<String, List<java.nio.file.Path>> files);

  /** Takes snapshot {@code name} of a table, flushing it first unless {@code flush} is false. */
  void snapshot(String table, String name, boolean flush);

  /** The snapshots, by name. */
  List<io.bellows.engine.SnapshotInfo> listSnapshots();

  void deleteSnapshot(String name);

  /** Creates table {@code table} of a snapshot. */
  void cloneSnapshot(String name, String table);

  /** Restores the (disabled) table a snapshot was taken of to it. */
  void restoreSnapshot(String name);

  @Override
  void close();

  /** Who runs the shell and on which engine (for {@code whoami}). */
  default Session session() {
    return Session.embedded(null);
  }

  /** The shell's view of a real engine; closing it closes the engine. */
  static Engine of(Bellows db) {
    return of(db, db.directory() == null ? Session.embedded(null) : Session.embedded(db.directory()));
  }

  /** The shell's view of a real engine reached as {@code session} says. */
  static Engine of(Bellows db, Session session) {
    return new BellowsEngine(db, session);
  }
}
