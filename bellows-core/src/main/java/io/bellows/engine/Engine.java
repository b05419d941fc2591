package io.bellows.engine;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Condition;
import io.bellows.atomic.Outcome;
import io.bellows.cell.Cell;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.BackgroundError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a Bellows engine does, in the engine's own terms (cells, {@link ScanQuery}): tables and
 * their data. The public API ({@code io.bellows.client}) translates its objects into these calls
 * at one place and runs over any implementation: the embedded {@link LocalEngine} now, a remote
 * one later.
 *
 * <p>Errors: {@code TableNotFoundException}, {@code TableExistsException}, {@code
 * TableNotEnabledException}, {@code NoSuchColumnFamilyException}, {@code EngineClosedException}
 * (all in {@code io.bellows.util}), {@link IllegalArgumentException} for malformed input, and
 * {@code StorageException} for everything else. Data calls take a {@link TableRef} from {@link
 * #table}; they fail with {@code TableNotFoundException} once that table is dropped, even if a new
 * table took its name.
 */
public interface Engine extends AutoCloseable {
  // ------------------------------------------------------------------ tables

  /** Creates a table of one region. */
  void createTable(TableDescriptor descriptor);

  /**
   * Creates a table pre-split into {@code splitKeys.size() + 1} regions by row-key range: {@code
   * [-, k1)}, {@code [k1, k2)}, ..., {@code [kn, -)}. The keys must be sorted, distinct and non-empty
   * ({@link IllegalArgumentException} otherwise); {@link SplitKeys} makes even splits.
   */
  void createTable(TableDescriptor descriptor, List<byte[]> splitKeys);

  /** The regions of a table in key order, with their sizes (see {@link RegionInfo}). */
  List<RegionInfo> regions(String table);

  TableDescriptor describeTable(String name);

  /** Table names in name order. */
  List<String> listTables();

  boolean tableExists(String name);

  /** Flushes the table and stops serving it; its data stays. */
  void disableTable(String name);

  void enableTable(String name);

  boolean isTableEnabled(String name);

  /** Deletes a disabled table and its data. */
  void dropTable(String name);

  /** The table of this name now; fails if there is none. */
  TableRef table(String name);

  /** Flushes every memory store of the table to disk and waits for it. */
  void flush(String table);

  /**
   * Splits the table's region that holds the most sorted-file data at its middle key (the first
   * row of the middle data block of its largest file); fails if it has none. Waits.
   */
  void split(String table);

  /**
   * Splits the region holding {@code splitKey} into two at it; the key must lie strictly inside
   * the region's range. Writes to the region wait meanwhile; reads go on. Waits.
   */
  void split(String table, byte[] splitKey);

  /** Runs a minor compaction of each store of the table if its policy picks files; waits. */
  void compact(String table);

  /**
   * Compacts all files of each store of each region into one; waits. A region split meanwhile has
   * its daughters major-compacted too, so no cell deleted before the call outlives it on disk.
   */
  void majorCompact(String table);

  // ------------------------------------------------------------------ data

  /** Applies each row's mutation atomically; rows are checked before any is applied. */
  void mutate(TableRef table, List<RowMutation> rows);

  /**
   * Applies one row's operation atomically (see {@link RowOperation}): checks its condition, writes
   * its cells and the new values of its column updates under one row lock, with one WAL record.
   * Returns whether it applied and, if asked, the cells the updates wrote. Bad input (an increment
   * of a value that is not 8 bytes, overlapping updates) is an {@link IllegalArgumentException} and
   * writes nothing.
   */
  Outcome mutateRow(TableRef table, RowOperation op);

  /**
   * Whether this engine applies a call named by a {@link CallId} at most once: a call sent again
   * with the same id after it applied applies nothing and answers what it answered the first time
   * (a replicated cluster). False: the id is ignored.
   */
  default boolean deduplicatesCalls() {
    return false;
  }

  /** As {@link #mutate(TableRef, List)}, for a call named by {@code call} (see {@link #deduplicatesCalls}). */
  default void mutate(TableRef table, List<RowMutation> rows, CallId call) {
    mutate(table, rows);
  }

  /** As {@link #mutateRow(TableRef, RowOperation)}, for a call named by {@code call} (see {@link #deduplicatesCalls}). */
  default Outcome mutateRow(TableRef table, RowOperation op, CallId call) {
    return mutateRow(table, op);
  }

  /**
   * Applies {@code mutation} only if the newest value of the column equals {@code expected} (null
   * or empty: the column is absent or empty), atomically with the check. Returns whether it was
   * applied.
   */
  default boolean checkAndMutate(TableRef table, byte[] family, byte[] qualifier, byte[] expected, RowMutation mutation) {
    return mutateRow(table, RowOperation.conditional(Condition.ifEquals(family, qualifier, expected), mutation)).applied();
  }

  /** Adds {@code amount} to an 8-byte counter column atomically and returns the new value. */
  default long increment(TableRef table, byte[] row, byte[] family, byte[] qualifier, long amount, Durability durability) {
    Outcome o = mutateRow(table, RowOperation.updates(row, List.of(ColumnUpdate.increment(family, qualifier, amount)),
        durability, true));
    Cell c = o.values().get(0);
    return io.bellows.util.Bytes.getLong(c.array(), c.valueOffset());
  }

  /**
   * Who leads what in a replicated cluster: its members and their replicas ({@link ClusterStatus});
   * empty for an engine that is not part of one (an embedded engine, a standalone server).
   */
  default Optional<ClusterStatus> clusterStatus() {
    return Optional.empty();
  }

  /**
   * Runs a leader-balancing pass of a replicated cluster now (HBase's {@code balancer}): the members
   * that lead the most regions hand leaderships over to those leading fewer; returns how many were
   * handed over. An engine of one member has nothing to balance: 0.
   */
  default int balance() {
    return 0;
  }

  /**
   * Hands the leadership of the region of {@code table} holding {@code row} to cluster member {@code
   * member} (its id), or, with {@code member} null, to the member of the region's replicas that
   * leads the fewest regions (HBase's {@code move}). In a cluster through Raft's leadership
   * transfer: the leader lets the member stand only once it holds the leader's whole log, so no
   * acknowledged write is at risk, and the region's writes pause for about an election. A member
   * that leads the region already is fine: nothing is handed over ({@link LeaderMove#moved()}
   * false). A member that holds no replica of the region gets one first (the replica moves there).
   * Refused for an unknown table or member and a member that does not answer (down or cut off). An
   * engine that is not a cluster has no leaderships to move: refused.
   */
  default LeaderMove moveLeader(String table, byte[] row, String member) {
    throw new UnsupportedOperationException("moving a region's leadership needs a cluster: this engine is a single"
        + " server, which serves every region itself");
  }

  /**
   * Adds member {@code id} to a cluster (the shell's {@code add_server}): its Raft port at {@code
   * raftAddress}, its client port at {@code clientAddress} (each host:port). Meta records it, every
   * member learns its addresses, and meta's leader adds it to meta's group once it answers (started
   * with a member file that lists it); from then on new regions may be placed on it and {@code move}
   * may put replicas there. Returns once it is a member of meta. Refused for an id or address the
   * cluster has, a cluster at its most members, and bad addresses. An engine that is not a cluster:
   * refused.
   */
  default void addServer(String id, String raftAddress, String clientAddress) {
    throw new UnsupportedOperationException("this engine is not a cluster: it has no members to add to");
  }

  /**
   * Decommissions cluster members {@code members} (their ids; HBase's {@code
   * decommission_regionservers}): no new replica is placed on them, and meta's leader moves their
   * replicas to the other members, a few at a time, in the background. Refused when fewer members
   * than a region's replicas would be left. An engine that is not a cluster has no members: refused.
   */
  default void decommission(java.util.List<String> members) {
    throw new UnsupportedOperationException("this engine is not a cluster: it has no members to decommission");
  }

  /** Takes a decommissioned member back (HBase's {@code recommission_regionserver}): replicas may go on it again. */
  default void recommission(String member) {
    throw new UnsupportedOperationException("this engine is not a cluster: it has no members to recommission");
  }

  /** The decommissioned members of a cluster, in id order; empty for an engine that is not one. */
  default java.util.List<String> decommissioned() {
    return java.util.List.of();
  }


  /**
   * Opens a read of the table's rows; the caller closes it. Each region is read at its read point
   * when the scan reaches it: a scan within one region is one snapshot, a scan across regions is
   * not (as in HBase); each row is always whole.
   */
  RowScanner scan(TableRef table, ScanQuery query);

  /**
   * Reads several rows: answer {@code i} holds the cells query {@code i} selects (empty if none).
   * Every query must be a single-row query. Each row is read whole, at its region's read point when
   * its turn comes (the rows are not one snapshot). A remote engine sends them in one call.
   */
  default List<List<Cell>> getAll(TableRef table, List<ScanQuery> singleRowQueries) {
    List<List<Cell>> out = new ArrayList<>(singleRowQueries.size());
    for (ScanQuery q : singleRowQueries) {
      if (!q.isSingleRow()) {
        throw new IllegalArgumentException("getAll takes single-row queries only");
      }
      List<Cell> cells = new ArrayList<>();
      try (RowScanner s = scan(table, q)) {
        s.nextRow(cells);
      }
      out.add(cells);
    }
    return out;
  }

  /**
   * Changes a table's settings and families, online: families added or deleted, knobs changed
   * (HBase's alter / modifyTable). The table keeps its name and data (but a deleted family's).
   */
  default void modifyTable(TableDescriptor next) {
    throw new UnsupportedOperationException("alter is not supported by this engine");
  }

  /**
   * Adopts sorted files built elsewhere ({@code BulkFileWriter}), by family, into the table,
   * atomically; returns the cells loaded.
   */
  default long bulkLoad(String table, Map<String, List<java.nio.file.Path>> files) {
    throw new UnsupportedOperationException("bulk load is not supported by this engine");
  }

  // ------------------------------------------------------------------ snapshots

  /**
   * Takes a snapshot of a table: a consistent copy of its files and settings at one point of its
   * history, kept until deleted (flushing first unless {@code flush} is false).
   */
  default void snapshot(String table, String name, boolean flush) {
    throw new UnsupportedOperationException("snapshots are not supported by this engine");
  }

  /** The snapshots, in name order. */
  default List<SnapshotInfo> listSnapshots() {
    throw new UnsupportedOperationException("snapshots are not supported by this engine");
  }

  default void deleteSnapshot(String name) {
    throw new UnsupportedOperationException("snapshots are not supported by this engine");
  }

  /** Creates a new table of a snapshot. */
  default void cloneSnapshot(String name, String table) {
    throw new UnsupportedOperationException("snapshots are not supported by this engine");
  }

  /** Restores the (disabled) table a snapshot was taken of to the snapshot. */
  default void restoreSnapshot(String name) {
    throw new UnsupportedOperationException("snapshots are not supported by this engine");
  }

  // ------------------------------------------------------------------ state

  /**
   * The engine's background-error state: empty while background work succeeds, else the worst
   * current error (one that stops writes before one that does not; then WAL, flush, compaction;
   * then the oldest). See docs/ARCHITECTURE.md, "Background errors".
   */
  Optional<BackgroundError> backgroundError();

  /**
   * Retries the failing background work at once, on the calling thread; each piece that works
   * clears its error, and writes resume once no error stops them. Throws {@code
   * WritesStoppedException} if writes are still stopped afterwards (a retry failed again), or
   * {@code StorageException} if a failed write-ahead log could not be recovered.
   */
  void resume();

  /**
   * Checks, online, every block of every live sorted file of every open table, every store's
   * manifest and the WAL files no longer written to, as a scrub; reads and writes go on meanwhile.
   * Changes nothing; reports each damage with the file and offset.
   */
  default VerifyReport verify() {
    throw new UnsupportedOperationException("verify is not supported by " + getClass().getSimpleName());
  }

  /** Engine-wide metrics by name. */
  Map<String, Number> metrics();

  /**
   * Per-store metrics of a table: family name -&gt; metric name -&gt; value, summed over the table's
   * regions.
   */
  Map<String, Map<String, Number>> storeMetrics(String table);

  /**
   * The memory-store segments of each store of the table's open regions, for status pages: the
   * accordion's active segment, pipeline and snapshot. Empty where the engine cannot tell (remote).
   */
  default List<StoreSegments> memStoreSegments(String table) {
    return List.of();
  }

  /** The WAL files kept now, oldest first, with their lengths. Empty where the engine cannot tell (remote). */
  default List<WalFileInfo> walFiles() {
    return List.of();
  }

  EngineOptions options();

  /** Flushes and closes every table and releases the engine's resources. */
  @Override
  void close();
}
