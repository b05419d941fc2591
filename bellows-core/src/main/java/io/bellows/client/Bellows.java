package io.bellows.client;

import io.bellows.config.EngineOptions;
import io.bellows.engine.Engine;
import io.bellows.engine.LocalEngine;
import io.bellows.engine.RegionInfo;
import io.bellows.engine.SnapshotInfo;
import io.bellows.fs.FileSystem;
import io.bellows.schema.ColumnFamilyDescriptor;
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

  /**
   * Loads sorted files built elsewhere with {@link BulkFileWriter} into a table, atomically (HBase's
   * bulk load, RocksDB's ingest): {@code files} maps a family to its files. Every file is checked
   * whole first, and nothing is loaded if one is damaged, unsorted or holds another family's cells
   * (the exception names it). The loaded cells are newer than every write before the call and older
   * than every write after it; a file spanning several regions is split among them. The table's
   * writes wait while its regions flush and the cells are written; the input files are not changed.
   * Returns the number of cells loaded.
   */
  public long bulkLoad(String table, Map<String, List<Path>> files) {
    return engine.bulkLoad(table, files);
  }

  /**
   * Changes a table's settings and families to {@code next} (same name), online (HBase's alter):
   * each region is flushed and reopened under the new settings, its writes waiting meanwhile; reads
   * go on. New settings apply to every later write, read (TTL, VERSIONS), flush and compaction;
   * a family no longer in {@code next} is deleted with its data. Start from {@link
   * #describeTable}{@code (t).toBuilder()}.
   */
  public void modifyTable(TableDescriptor next) {
    engine.modifyTable(next);
  }

  /** Adds a column family to a table, online. */
  public void addFamily(String table, ColumnFamilyDescriptor family) {
    modifyTable(describeTable(table).toBuilder().family(family).build());
  }

  /** Replaces a column family's settings, online. */
  public void modifyFamily(String table, ColumnFamilyDescriptor family) {
    TableDescriptor d = describeTable(table);
    if (d.family(family.name()) == null) {
      throw new io.bellows.util.NoSuchColumnFamilyException("table '" + table + "' has no column family '"
          + family.name() + "'");
    }
    modifyTable(d.toBuilder().modifyFamily(family).build());
  }

  /** Deletes a column family and its data from a table, online; a table keeps at least one. */
  public void deleteFamily(String table, String family) {
    modifyTable(describeTable(table).toBuilder().removeFamily(family).build());
  }

  /**
   * Takes snapshot {@code name} of a table, online: the table is flushed, and the snapshot holds its
   * settings and files (hard links, so it is cheap and costs no space until compactions rewrite the
   * table) as of one point of its history, every write acknowledged before this call included.
   * Writes to the table wait while its regions flush; reads go on. Names: letters, digits, {@code
   * _ - .} (not first). Throws {@code IllegalArgumentException} if the name is taken or invalid.
   */
  public void snapshot(String table, String name) {
    engine.snapshot(table, name, true);
  }

  /** As {@link #snapshot(String, String)}; with {@code flush} false, without flushing (HBase's SKIP_FLUSH): what is only in memory is not in the snapshot. */
  public void snapshot(String table, String name, boolean flush) {
    engine.snapshot(table, name, flush);
  }

  /** The snapshots of this data directory, by name. */
  public List<SnapshotInfo> listSnapshots() {
    return engine.listSnapshots();
  }

  /** Deletes a snapshot; the tables are not touched. */
  public void deleteSnapshot(String name) {
    engine.deleteSnapshot(name);
  }

  /** Creates table {@code table}, enabled, from a snapshot (its settings, regions and data); the snapshot is unchanged. */
  public void cloneSnapshot(String name, String table) {
    engine.cloneSnapshot(name, table);
  }

  /**
   * Restores the table a snapshot was taken of to the snapshot: its settings, regions and data as
   * they were. The table must be disabled (as HBase requires) and stays disabled; if it was dropped,
   * it is created again (enabled) as by {@link #cloneSnapshot}.
   */
  public void restoreSnapshot(String name) {
    engine.restoreSnapshot(name);
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
   * Retries a failed write-ahead log, then failing flushes and compactions, now, on this thread,
   * after the cause (a full disk, a permission, file descriptors) was fixed; writes resume if they
   * work. Throws {@code StorageException} if the log still fails, {@code WritesStoppedException} if
   * writes are still stopped otherwise. Background retries would also resume writes stopped by
   * flushes, after their backoff (up to 10 s); a failed log is retried only here (or by a reopen).
   */
  public void resume() {
    engine.resume();
  }

  /**
   * Runs a leader-balancing pass of a cluster now (HBase's {@code balancer}); returns the regions
   * whose leadership moved to another member. 0 for an engine that is not a cluster.
   */
  public int balance() {
    return engine.balance();
  }

  /**
   * Hands the leadership of the region of {@code table} holding {@code row} to cluster member {@code
   * member}, or with null to the replica's member leading fewest regions (HBase's {@code move}); see
   * {@link io.bellows.engine.Engine#moveLeader}. Refused by an engine that is not a cluster.
   */
  public io.bellows.engine.LeaderMove moveLeader(String table, byte[] row, String member) {
    return engine.moveLeader(table, row, member);
  }

  /**
   * Adds member {@code id} to a cluster (the shell's {@code add_server}), its Raft and client ports
   * at {@code raftAddress} and {@code clientAddress}; see {@link io.bellows.engine.Engine#addServer}.
   */
  public void addServer(String id, String raftAddress, String clientAddress) {
    engine.addServer(id, raftAddress, clientAddress);
  }

  /** Decommissions cluster members (HBase's {@code decommission_regionservers}); see {@link io.bellows.engine.Engine#decommission}. */
  public void decommission(List<String> members) {
    engine.decommission(members);
  }

  /** Takes a decommissioned member back (HBase's {@code recommission_regionserver}). */
  public void recommission(String member) {
    engine.recommission(member);
  }

  /** The decommissioned members of a cluster (HBase's {@code list_decommissioned_regionservers}). */
  public List<String> decommissioned() {
    return engine.decommissioned();
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
