package io.bellows.region;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Condition;
import io.bellows.atomic.Outcome;
import io.bellows.cell.Cell;
import io.bellows.config.Durability;
import io.bellows.record.WriteRecord;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.store.Store;
import io.bellows.store.StoreContext;
import io.bellows.util.Bytes;
import io.bellows.util.NoSuchColumnFamilyException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One row-key range of a table's data (the engine routes each row to the region whose range holds
 * it; a region does not check a write's row against its range, but its reads and compactions keep
 * to it, see {@link #bounded}): its stores, row locks and MVCC, and the entry points of its work,
 * each done by a part with one job:
 *
 * <ul>
 *   <li>writes: {@link RowWrites} (one row, or a batch as mini-batches), {@link AtomicRowWrite}
 *       (conditions, increments, appends), both through {@link WriteBlocking} (back-pressure) and
 *       the three {@link WriteSteps}: evaluate → log (the region's {@link RegionLog}) → apply;
 *   <li>reads: {@link RegionReads} and {@link RegionScanner};
 *   <li>flushes: {@link RegionFlusher}; splits and snapshots: {@link SplitSupport}.
 * </ul>
 *
 * <p>Locks, in the order they are taken: row locks (held from evaluation to the memory-store insert,
 * released before the WAL sync; a mini-batch takes several, in increasing stripe order, see {@link
 * RowLocks}); the updates lock
 * in read mode (held from sequence-id assignment until the cells are in the memory stores; a flush
 * takes it in write mode to freeze memory stores at a point where every assigned sequence id below
 * the snapshot's largest is inside it); the MVCC monitor (briefly).
 */
public final class Region implements AutoCloseable {
  private final int regionId;
  private final TableDescriptor descriptor;
  private final Path dir;
  private final Map<String, Store> stores = new LinkedHashMap<>();
  private final Store[] storeArray;
  private final byte[][] familyNames;
  private final Mvcc mvcc;
  private final ReentrantReadWriteLock updatesLock = new ReentrantReadWriteLock();
  private volatile boolean closed;
  /** The rows of this region, [startKey, endKey), an empty key unbounded: reads return no others. */
  private final byte[] startKey;
  private final byte[] endKey;
  private final RegionServices services;
  /** Settings of the write path, resolved once: no write looks a knob up. */
  private final RegionOptions settings;
  private final RegionReads reads;
  private final RegionFlusher flusher;
  private final RowWrites rowWrites;
  private final AtomicRowWrite atomicRowWrite;
  private final SplitSupport splitSupport;
  private final WriteSteps steps;
  private final WriteBlocking blocking;

  /**
   * One row's mutation in a batch: cells of {@code row} or, when {@code wholeRowDeleteTs} &gt;= 0, the
   * deletion of every family of the row up to that timestamp ({@code cells} then empty). A null
   * durability means {@link Durability#USE_DEFAULT}.
   */
  public record RowWrite(byte[] row, List<Cell> cells, long wholeRowDeleteTs, Durability durability) {}

  /**
   * Creates the directories of a new region (each store with an empty manifest) and opens it. The
   * caller lists the region in the catalog only after this returns, so a listed region always has
   * its stores on disk.
   */
  public static Region create(int regionId, TableDescriptor descriptor, Path dir, RegionServices services,
      byte[] startKey, byte[] endKey) {
    for (ColumnFamilyDescriptor f : descriptor.families()) {
      Store.initialize(services.fileSystem(), dir.resolve(f.name()));
    }
    return new Region(regionId, descriptor, dir, services, startKey, endKey);
  }

  /** Creates a new region over every row. */
  public static Region create(int regionId, TableDescriptor descriptor, Path dir, RegionServices services) {
    return create(regionId, descriptor, dir, services, Bytes.EMPTY, Bytes.EMPTY);
  }

  /** Opens an existing region over every row. */
  public Region(int regionId, TableDescriptor descriptor, Path dir, RegionServices services) {
    this(regionId, descriptor, dir, services, Bytes.EMPTY, Bytes.EMPTY);
  }

  /**
   * Opens an existing region of the rows [startKey, endKey) (an empty key is unbounded): every store
   * of the descriptor must be on disk. Its reads never return a row outside the range, and its
   * compactions drop cells outside it (a split's daughters share their parent's files).
   */
  public Region(int regionId, TableDescriptor descriptor, Path dir, RegionServices services,
      byte[] startKey, byte[] endKey) {
    this.regionId = regionId;
    this.startKey = startKey.clone();
    this.endKey = endKey.clone();
    this.descriptor = descriptor;
    this.dir = dir;
    this.services = services;
    this.settings = RegionOptions.resolve(services.options(), descriptor);
    this.mvcc = new Mvcc(services.sequenceIds(), services.sequenceIds().last(), services.log());
    ReadPoints readPoints = new ReadPoints(mvcc::readPoint);
    for (ColumnFamilyDescriptor f : descriptor.families()) {
      StoreContext sc = new StoreContext(OptionsResolver.store(services.options(), descriptor, f), services.options().clock(), readPoints::smallest,
          services.inMemoryCompactions(), services.chunks(), services.metrics(),
          services.fileNumbers(), services.engineInstanceId(), descriptor.name(), services.events(),
          services.blockCache(), services.fileSystem(), services.kvCache());
      Store store = new Store(f, dir.resolve(f.name()), sc);
      store.keyRange(this.startKey, this.endKey);
      stores.put(f.name(), store);
    }
    this.storeArray = stores.values().toArray(new Store[0]);
    this.familyNames = new byte[storeArray.length][];
    Durability[] familyDurability = new Durability[storeArray.length];
    for (int i = 0; i < storeArray.length; i++) {
      familyNames[i] = storeArray[i].family().nameBytes();
      familyDurability[i] = settings.familyDurability().get(storeArray[i].family().name());
    }
    this.reads = new RegionReads(this, readPoints);
    this.flusher = new RegionFlusher(this, services, updatesLock);
    this.blocking = new WriteBlocking(this, services, flusher, settings);
    this.steps = new WriteSteps(this, mvcc, updatesLock, services, settings, familyDurability);
    this.rowWrites = new RowWrites(this, new RowLocks(1024), steps, blocking);
    this.atomicRowWrite = new AtomicRowWrite(this, rowWrites.rowLocks(), rowWrites, steps, blocking);
    this.splitSupport = new SplitSupport(this, flusher, updatesLock);
  }

  public int id() {
    return regionId;
  }

  public TableDescriptor descriptor() {
    return descriptor;
  }

  public Path directory() {
    return dir;
  }

  public byte[] startKey() {
    return startKey.clone();
  }

  public byte[] endKey() {
    return endKey.clone();
  }

  /** Whether the row lies in this region's range. */
  public boolean containsRow(byte[] row) {
    return Bytes.compare(row, startKey) >= 0 && (endKey.length == 0 || Bytes.compare(row, endKey) < 0);
  }

  /**
   * The query narrowed to this region's rows, or null if it wants none of them. The region's files
   * may hold rows outside its range (a split's daughters start with links to their parent's files).
   */
  ScanQuery bounded(ScanQuery q) {
    return q.clippedTo(startKey, endKey);
  }

  public Map<String, Store> stores() {
    return stores;
  }

  /** The store of a family; throws {@link NoSuchColumnFamilyException} if the table has no such family. */
  public Store store(byte[] family) {
    Store s = stores.get(Bytes.str(family));
    if (s == null) {
      throw new NoSuchColumnFamilyException("table '" + descriptor.name() + "' has no column family '"
          + Bytes.toStringBinary(family) + "'");
    }
    return s;
  }


  /** The stores in descriptor order (the region's own array: callers do not change it). */
  Store[] storeArray() {
    return storeArray;
  }

  RegionOptions settings() {
    return settings;
  }

  RegionReads reads() {
    return reads;
  }

  /** The range's bounds themselves (not copies), for the region's parts. */
  byte[] startKeyRef() {
    return startKey;
  }

  byte[] endKeyRef() {
    return endKey;
  }

  /**
   * The store of a cell's family, found by comparing bytes (no allocation on the write path);
   * throws {@link NoSuchColumnFamilyException} for a family the table does not have.
   */
  Store storeOf(Cell c) {
    Store s = storeOrNull(c);
    return s != null ? s : store(c.family());
  }

  private Store storeOrNull(Cell c) {
    int i = storeIndexOf(c);
    return i < 0 ? null : storeArray[i];
  }

  /** The position of the cell's store in {@code storeArray}, or -1 (compares bytes, allocates nothing). */
  int storeIndexOf(Cell c) {
    for (int i = 0; i < storeArray.length; i++) {
      byte[] f = familyNames[i];
      if (Bytes.equals(c.array(), c.familyOffset(), c.familyLength(), f, 0, f.length)) {
        return i;
      }
    }
    return -1;
  }

  long readPoint() {
    return mvcc.readPoint();
  }

  long servicesClockNow() {
    return services.options().clock().currentTimeMillis();
  }

  public long oldestPendingSeqId() {
    return mvcc.oldestPendingSeqId();
  }

  /** Smallest sequence id still only in memory over all stores. */
  public long oldestUnflushedSeqId() {
    long min = Long.MAX_VALUE;
    for (Store s : stores.values()) {
      min = Math.min(min, s.oldestUnflushedSeqId());
    }
    return min;
  }

  // ================================================================== writes

  /**
   * Applies one row mutation atomically. {@code cells} belong to {@code row}; timestamps equal to
   * {@link Long#MAX_VALUE} are replaced by now; a DELETE of the latest version is resolved to the
   * latest version's timestamp. {@code wholeRowDeleteTs} &gt;= 0 means "delete every family of the
   * row up to that timestamp" (and {@code cells} is then empty).
   */
  public void mutate(byte[] row, List<Cell> cells, long wholeRowDeleteTs, Durability durability) {
    rowWrites.mutate(row, cells, wholeRowDeleteTs, durability);
  }

  /**
   * Applies a batch of row mutations. Every row is validated first: if any is bad, this throws and
   * nothing is applied. The rows are then applied in batch order as successive <em>mini-batches</em>
   * of distinct rows: a mini-batch ends before a row that it already holds (so two mutations of one
   * row apply in batch order: the later one gets a higher sequence id and sees the earlier one), and
   * at {@link RowWrites#MINI_BATCH_MAX_ROWS} rows or {@link RowWrites#MINI_BATCH_MAX_BYTES} bytes.
   * Per mini-batch: one back-pressure check per store touched, the rows' locks, one sequence id, one
   * record in the region's log holding the cells of every row not written with SKIP_WAL (none if
   * all are), one wait for durability at the strongest durability of those rows, one MVCC
   * completion.
   *
   * <p>Each row is atomic. A mini-batch also becomes visible all at once (one sequence id), but only
   * per-row atomicity is promised, as in HBase: the batch as a whole is not atomic. If a WAL append or
   * sync fails, no row of that mini-batch is acknowledged (this throws) and the engine stops; rows of
   * earlier mini-batches of the batch were applied.
   */
  public void mutateBatch(List<RowWrite> rows) {
    rowWrites.mutateBatch(rows);
  }

  /**
   * One row's atomic operation: if {@code condition} holds (null: no condition), writes {@code
   * cells} (or the whole-row delete) and the new values of {@code updates}, all with one sequence id
   * in one WAL record (one {@code apply}). Check, reads of the updated columns and write happen
   * under the row lock, so no other write to the row interleaves and a reader sees all of it or
   * none. Each update's new value comes from its column's newest visible value before this
   * operation and is written at {@code max(now, that value's timestamp)}, so it sorts as the
   * newest version even within one millisecond (a timestamp tie goes to the higher sequence id).
   *
   * <p>Bad input throws {@link IllegalArgumentException} before anything is written: an update of a
   * column twice, an update of a column that {@code cells} also write or delete (or whose family
   * they delete), an increment of a value that is not 8 bytes (the message names the column), a
   * new value above the maximum value size. An unknown family, in the condition too, throws {@link
   * NoSuchColumnFamilyException}.
   *
   * @return whether it applied and, if {@code returnValues}, the cells the updates wrote
   */
  public Outcome mutateRow(byte[] row, Condition condition, List<Cell> cells, long wholeRowDeleteTs,
      List<ColumnUpdate> updates, Durability durability, boolean returnValues) {
    return atomicRowWrite.mutateRow(row, condition, cells, wholeRowDeleteTs, updates, durability, returnValues);
  }

  /**
   * Checks one row of a batch as {@link #mutateBatch} would, without applying anything: the engine
   * checks every row of a batch that spans regions before any region applies its part.
   */
  public void validate(RowWrite w) {
    rowWrites.validate(w.row(), rowWrites.expandWholeRowDelete(w.row(), w.cells(), w.wholeRowDeleteTs()));
  }

  /**
   * Applies a record that the region's log committed, when the log {@linkplain
   * RegionLog#appliesRecords applies records} (a replicated region): called on every replica, the
   * leader included, in log order, from one thread at a time, with the sequence id the log gave the
   * record (larger than every one before; its cells' own ids are ignored). The record becomes
   * visible all at once. A record whose cells some store's files already hold (the log replayed
   * from a checkpoint after a restart) goes only to the other stores. Asks for a flush of a store
   * that reached the flush size, as a write does; never waits on back-pressure (the leader's
   * writers did).
   */
  public void applyCommitted(WriteRecord record) {
    steps.applyCommitted(record);
    blocking.afterWrite(record.cells());
  }

  /** Makes replayed edits visible: called once after WAL replay, before any new write. */
  public void recovered(long highestSeqId) {
    mvcc.advanceTo(highestSeqId);
  }

  /** The log recovered: every write whose sync had failed is durable now, and becomes visible. */
  public void logRecovered() {
    mvcc.releaseParked();
  }

  /**
   * Replays one record of the region's log at open: cells of stores whose files already hold the
   * record are skipped. Returns whether any cell was applied (false: the record was flushed already).
   */
  public boolean replay(WriteRecord edit) {
    boolean applied = false;
    for (Cell c : edit.cells()) {
      Store s = storeOrNull(c);
      if (s != null && edit.seqId() > s.flushedSeqId()) {
        Cell copy = new Cell(c.array(), c.offset(), c.length(), edit.seqId());
        s.add(copy);
        applied = true;
      }
    }
    return applied;
  }

  // ================================================================== reads

  /** Opens a scanner at the current read point; the caller closes it. */
  public RegionScanner scanner(ScanQuery query) {
    return reads.scanner(query);
  }

  void readerClosed(ReadPoints.Reader reader) {
    reads.readerClosed(reader);
  }

  // ================================================================== flush & compaction

  /** {@link #flush}'s result when nothing was flushed. */
  public static final long NOTHING_FLUSHED = -1;

  /**
   * Flushes the memory stores to sorted files: every store if {@code all}, else those at or above
   * the flush size. Waits for a concurrent flush of this region to finish first. Returns the
   * region's oldest unflushed sequence id afterwards ({@link Long#MAX_VALUE} if its memory is
   * empty), or {@link #NOTHING_FLUSHED}: the caller, the engine, decides from it which WAL files
   * may go.
   */
  public long flush(boolean all) {
    return flusher.flush(all);
  }

  // ================================================================== split

  /**
   * Blocks writes and flushes of this region and flushes every store, for a split: takes the flush
   * lock, then the updates lock in write mode (the order a flush takes them), flushes all, and
   * keeps compactions out. Reads go on. Every edit of the region is then in its sorted files, and no
   * write enters until {@link #unblockAfterSplit}. On failure everything is released and it throws.
   */
  public void blockForSplit() {
    splitSupport.block(true);
  }

  /**
   * Blocks writes, flushes and compactions of this region as {@link #blockForSplit} does, for a
   * snapshot: with {@code flush}, every store is flushed first (the snapshot then holds every write
   * made before the block); without, the files hold what was flushed before (HBase's SKIP_FLUSH).
   * Release with {@link #unblockAfterSplit}.
   */
  public void blockForSnapshot(boolean flush) {
    splitSupport.block(flush);
  }

  /**
   * Releases what {@link #blockForSplit} took. If the split committed, the region was closed
   * meanwhile, and writers waiting for it find it closed and go to the daughters.
   */
  public void unblockAfterSplit() {
    splitSupport.unblock();
  }

  /** Creates a daughter region's store directories in {@code target}: hard links to this region's files. */
  public void linkStoresInto(Path target) {
    splitSupport.linkStoresInto(target);
  }

  /**
   * A split key for this region: the first row of the middle data block of the largest file of its
   * largest store (by file bytes), if that row lies strictly inside the region's range; else null.
   */
  public byte[] midKey() {
    return splitSupport.midKey();
  }

  /**
   * Whether a sorted file of this region holds rows outside its range: a daughter of a split whose
   * linked files no compaction has rewritten yet (by the files' first and last rows).
   */
  public boolean holdsRowsOutsideRange() {
    return splitSupport.holdsRowsOutsideRange();
  }

  /** The bytes of sorted files of this region's largest store: what a table's {@code MAX_FILESIZE} is held against. */
  public long largestStoreBytes() {
    long largest = 0;
    for (Store s : stores.values()) {
      largest = Math.max(largest, s.metrics().getOrDefault("store.files.bytes", 0L).longValue());
    }
    return largest;
  }

  /** Runs a compaction of every store (minor: only where the policy picks files). */
  public void compact(boolean major) {
    for (Store s : stores.values()) {
      s.compact(major);
    }
    flusher.wake();
  }

  /** Whether any store has files a minor compaction would merge. */
  public boolean needsCompaction() {
    for (Store s : stores.values()) {
      if (!s.selectMinor().isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** Wakes writers waiting on back-pressure so they look again (the engine stopped writes). */
  public void wakeBlockedWriters() {
    flusher.wake();
  }

  void checkOpen() {
    if (closed) {
      throw new RegionClosedException("table '" + descriptor.name() + "' is closed");
    }
  }

  /** Flushes (if {@code flush}) and closes every store; wakes blocked writers. */
  public void close(boolean flush) {
    if (flush && !closed) {
      // Writes wait while the region flushes and closes: one that got in after the last flush would
      // be dropped with the memory (or keep the memory from emptying).
      flusher.flushLock().lock();
      updatesLock.writeLock().lock();
      try {
        flusher.flushAll();
        closed = true;
      } finally {
        updatesLock.writeLock().unlock();
        flusher.flushLock().unlock();
      }
    }
    closed = true;
    flusher.wake();
    flusher.flushLock().lock();
    try {
      for (Store s : stores.values()) {
        s.close();
      }
    } finally {
      flusher.flushLock().unlock();
    }
  }

  @Override
  public void close() {
    close(true);
  }

  public boolean isClosedForWork() {
    return closed;
  }
}
