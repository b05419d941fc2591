package io.bellows.client;

import io.bellows.config.EngineOptions;
import io.bellows.engine.Engine;
import io.bellows.engine.LocalEngine;
import io.bellows.engine.RegionInfo;
import io.bellows.fs.FileSystem;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.BackgroundError;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The entry point of the API: tables and their administration, over an {@link Engine} — the
 * embedded one from {@link #open}, or any other from {@link #over} (a server's, through the
 * bellows-client module).
 *
 * <pre>{@code
 * try (Bellows db = Bellows.open(Path.of("data"), EngineOptions.defaults())) {
 *   db.createTable(TableDescriptor.builder("t").family("f").build());
 *   Table t = db.getTable("t");
 *   t.put(new Put("row1").addColumn("f", "q", "v"));
 * }
 * }</pre>
 *
 * <p>Thread-safe. One embedded engine per directory: a second open of the same directory fails
 * while the first is open (a file lock). Directory layout: see docs/FORMAT.md.
 */
public final class Bellows implements AutoCloseable {
  private final Engine engine;
  private final Path directory;

  private Bellows(Engine engine, Path directory) {
    this.engine = engine;
    this.directory = directory;
  }

  /**
   * Opens the embedded engine on {@code dir}, replaying its WAL; creates the store if {@code dir}
   * is missing or empty. A directory that holds files but no {@code CATALOG} is refused with
   * nothing changed.
   */
  public static Bellows open(Path dir, EngineOptions options) {
    return new Bellows(LocalEngine.open(dir, options), dir.toAbsolutePath());
  }

  /**
   * Opens or creates the embedded store in {@code dir} of the file system {@code fs} (tests run the
   * engine on {@link io.bellows.fs.MemFileSystem} or {@link io.bellows.fs.FaultInjectingFileSystem}).
   */
  public static Bellows open(Path dir, EngineOptions options, FileSystem fs) {
    return new Bellows(LocalEngine.open(dir, options, fs), dir.toAbsolutePath());
  }

  /**
   * The API over any engine, such as a remote one (module bellows-client). Closing the returned
   * object closes the engine; {@link #directory()} is null, as there is no local directory.
   */
  public static Bellows over(Engine engine) {
    return new Bellows(java.util.Objects.requireNonNull(engine, "engine"), null);
  }

  /** Creates a table of one region. */
  public void createTable(TableDescriptor descriptor) {
    engine.createTable(descriptor);
  }

  /**
   * Creates a table pre-split into {@code splitKeys.size() + 1} regions by row-key range; the keys
   * must be sorted, distinct and non-empty. Even splits: {@code SplitKeys.hexString(n)} and {@code
   * SplitKeys.uniform(n)} (HBase's {@code HexStringSplit} and {@code UniformSplit}).
   */
  public void createTable(TableDescriptor descriptor, List<byte[]> splitKeys) {
    engine.createTable(descriptor, splitKeys);
  }

  /** The regions of a table in key order: id, key range, sizes. */
  public List<RegionInfo> regions(String table) {
    return engine.regions(table);
  }

  public TableDescriptor describeTable(String name) {
    return engine.describeTable(name);
  }

  /** Table names in name order. */
  public List<String> listTables() {
    return engine.listTables();
  }

  public boolean tableExists(String name) {
    return engine.tableExists(name);
  }

  /** Flushes and closes the table; reads and writes fail until it is enabled again. */
  public void disableTable(String name) {
    engine.disableTable(name);
  }

  public void enableTable(String name) {
    engine.enableTable(name);
  }

  public boolean isTableEnabled(String name) {
    return engine.isTableEnabled(name);
  }

  /** Drops a disabled table and deletes its data (HBase requires disabling first; so does Bellows). */
  public void dropTable(String name) {
    engine.dropTable(name);
  }

  /**
   * A handle of the table. It belongs to this table, not to the name: once the table is dropped
   * every call fails, even after a new table of the same name is created (as in HBase).
   */
  public Table getTable(String name) {
    return new TableImpl(engine, engine.table(name));
  }

  /** Flushes every memory store of the table to disk and waits for it. */
  public void flush(String table) {
    engine.flush(table);
  }

  /** Runs a minor compaction of each store of the table if its policy picks files; waits. */
  public void compact(String table) {
    engine.compact(table);
  }

  /** Compacts all files of each store into one, dropping deleted, expired and surplus data; waits. */
  public void majorCompact(String table) {
    engine.majorCompact(table);
  }

  /**
   * Splits the table's region holding the most sorted-file data at its middle key (HBase's {@code
   * split 't'}); fails if that region has no middle key. Waits.
   */
  public void split(String table) {
    engine.split(table);
  }

  /**
   * Splits the region holding {@code splitKey} at it (HBase's {@code split 't', 'key'}); the key
   * must lie strictly inside one region. Waits.
   */
  public void split(String table, byte[] splitKey) {
    engine.split(table, splitKey);
  }

  /**
   * The engine's background-error state: empty while flushes, compactions and the WAL work, else
   * the worst current error. While it {@linkplain BackgroundError#stopsWrites() stops writes}, every
   * write fails at once with a {@code WritesStoppedException} naming it, nothing applied; reads keep
   * working. See docs/ARCHITECTURE.md, "Background errors".
   */
  public Optional<BackgroundError> backgroundError() {
    return engine.backgroundError();
  }

  /**
   * Retries failing flushes and compactions now, on this thread, after the cause (a full disk, a
   * permission) was fixed; writes resume if they work. Throws {@code WritesStoppedException} if
   * writes are still stopped: a retry failed again, or the write-ahead log failed, which needs the
   * engine to be closed and opened again. Background retries would also resume writes, after their
   * backoff (up to 10 s).
   */
  public void resume() {
    engine.resume();
  }

  /**
   * Checks every block of every sorted file online, as a scrub (reads and writes go on), and the
   * manifests and closed WAL files: a report of what was checked and each damage with the file and
   * offset. Changes nothing; {@code bellows repair} (offline) fixes what it finds.
   */
  public io.bellows.engine.VerifyReport verify() {
    return engine.verify();
  }

  /** Engine-wide metrics by name (WAL, flushes, compactions, memory, blocked time, GC). */
  public Map<String, Number> metrics() {
    return engine.metrics();
  }

  /** Per-store metrics of a table: family name -&gt; metric name -&gt; value. */
  public Map<String, Map<String, Number>> storeMetrics(String table) {
    return engine.storeMetrics(table);
  }

  /** The data directory of the embedded engine; null over an engine from {@link #over}. */
  public Path directory() {
    return directory;
  }

  public EngineOptions options() {
    return engine.options();
  }

  /** Flushes and closes every table, stops background work, closes the WAL, unlocks the directory. */
  @Override
  public void close() {
    engine.close();
  }
}
