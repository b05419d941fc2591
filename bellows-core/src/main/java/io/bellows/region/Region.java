package io.bellows.region;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Condition;
import io.bellows.atomic.Outcome;
import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.config.Knobs;
import io.bellows.record.WriteRecord;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.config.Durability;
import io.bellows.schema.TableDescriptor;
import io.bellows.store.Store;
import io.bellows.store.StoreContext;
import io.bellows.util.Bytes;
import io.bellows.util.EventListener;
import io.bellows.util.NoSuchColumnFamilyException;
import io.bellows.util.StorageException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One row-key range of a table's data (the engine routes each row to the region whose range holds
 * it; a region does not check a write's row against its range, but its reads and compactions keep
 * to it, see {@link #bounded}): its stores, row locks and MVCC, and the
 * write path: validate, lock the row, assign a sequence id, append to the WAL, insert into the
 * memory stores, sync the WAL as the durability asks, complete in MVCC (the mutation becomes
 * visible at once), unlock. A batch of rows ({@link #mutateBatch}) goes the same way as
 * <em>mini-batches</em>: one back-pressure check, all row locks, one sequence id, one WAL record, one
 * sync and one MVCC completion for many rows.
 *
 * <p>Locks, in the order they are taken: row locks (held for the whole mutation; a mini-batch takes
 * several, in increasing stripe order, see {@link RowLocks}); the updates lock
 * in read mode (held from sequence-id assignment until the cells are in the memory stores; a flush
 * takes it in write mode to freeze memory stores at a point where every assigned sequence id below
 * the snapshot's largest is inside it); the MVCC monitor (briefly).
 */
public final class Region implements AutoCloseable {
  private final int regionId;
  private final TableDescriptor descriptor;
  private final Path dir;
  private final RegionServices services;
  private final Map<String, Store> stores = new LinkedHashMap<>();
  private final Store[] storeArray;
  private final byte[][] familyNames;
  private final Mvcc mvcc;
  private final ReadPoints readPoints;
  private final RowLocks rowLocks = new RowLocks(1024);
  private final ReentrantReadWriteLock updatesLock = new ReentrantReadWriteLock();
  private final ReentrantLock flushLock = new ReentrantLock();
  private final Object flushSignal = new Object();
  private final AtomicBoolean flushRequested = new AtomicBoolean();
  private volatile boolean closed;
  /** The rows of this region, [startKey, endKey), an empty key unbounded: reads return no others. */
  private final byte[] startKey;
  private final byte[] endKey;
  /** Settings of the write path, resolved once: no write looks a knob up. */
  private final RegionOptions settings;
  private final double blockMultiplier;
  private final long blockingWaitNanos;
  private final int blockingFiles;
  /** Each store's FAMILY_DURABILITY, by position in {@code storeArray}. */
  private final Durability[] familyDurability;
  /** Whether some family has a durability of its own (else a write's is its request's or the default). */
  private final boolean anyFamilyDurability;
  /** Why the last flush failed; null once one succeeds. Bounds how long blocked writers wait. */
  private volatile RuntimeException flushFailure;
  private final java.util.concurrent.atomic.AtomicLong lastBlockWarning =
      new java.util.concurrent.atomic.AtomicLong(System.nanoTime() - TimeUnit.MINUTES.toNanos(1));
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Region.class);

  /**
   * Most rows in one mini-batch: bounds how many row locks (stripes) one writer holds through its
   * WAL sync, so single-row writers are not shut out for long.
   */
  static final int MINI_BATCH_MAX_ROWS = 1000;
  /**
   * Most bytes of cells (as the WAL encodes them, 4 + cell length each) in one mini-batch, so one WAL
   * record stays bounded (far below the WAL's record limit and its 8 MiB write-out threshold). A
   * single row larger than this is a mini-batch of its own, as a single-row mutation would be.
   */
  static final long MINI_BATCH_MAX_BYTES = 4L * 1024 * 1024;

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
    this.blockMultiplier = settings.blockMultiplier();
    this.blockingWaitNanos = settings.blockingWaitNanos();
    this.blockingFiles = settings.blockingFiles();
    this.mvcc = new Mvcc(services.sequence(), services.sequence().get());
    this.readPoints = new ReadPoints(mvcc);
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
    this.familyDurability = new Durability[storeArray.length];
    for (int i = 0; i < storeArray.length; i++) {
      familyNames[i] = storeArray[i].family().nameBytes();
      familyDurability[i] = settings.familyDurability().get(storeArray[i].family().name());
    }
    this.anyFamilyDurability = Arrays.stream(familyDurability).anyMatch(d -> d != Durability.USE_DEFAULT);
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
    if (q.isSingleRow()) {
      return containsRow(q.startRow()) ? q : null;
    }
    ScanQuery.Builder b = null;
    if (startKey.length > 0 && Bytes.compare(q.startRow(), startKey) < 0) {
      b = q.toBuilder().startRow(startKey, true);
    }
    if (endKey.length > 0) {
      byte[] stop = q.stopRow();
      int c = stop.length == 0 ? 1 : Bytes.compare(stop, endKey);
      if (c > 0 || (c == 0 && q.stopInclusive())) {
        b = (b == null ? q.toBuilder() : b).stopRow(endKey, false);
      }
    }
    ScanQuery out = b == null ? q : b.build();
    byte[] stop = out.stopRow();
    if (stop.length > 0) {
      int c = Bytes.compare(out.startRow(), stop);
      if (c > 0 || (c == 0 && !(out.stopInclusive() && out.startInclusive()))) {
        return null;
      }
    }
    return out;
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

  /** Adds stamped cells to their stores, each run of cells of one store in one call. */
  private void addToStores(List<Cell> cells) {
    int from = 0;
    Store current = null;
    for (int i = 0; i < cells.size(); i++) {
      Store s = storeOf(cells.get(i));
      if (s != current) {
        if (current != null) {
          current.addAll(cells.subList(from, i));
        }
        current = s;
        from = i;
      }
    }
    if (current != null) {
      current.addAll(cells.subList(from, cells.size()));
    }
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
  private int storeIndexOf(Cell c) {
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
    List<Cell> expanded = expandWholeRowDelete(row, cells, wholeRowDeleteTs);
    validate(row, expanded);
    waitIfBlocked(expanded);
    ReentrantLock lock = rowLocks.lockFor(row);
    lock.lock();
    try {
      apply(row, expanded, durability);
    } finally {
      lock.unlock();
    }
    afterWrite(expanded);
  }

  /**
   * Applies a batch of row mutations. Every row is validated first: if any is bad, this throws and
   * nothing is applied. The rows are then applied in batch order as successive <em>mini-batches</em>
   * of distinct rows: a mini-batch ends before a row that it already holds (so two mutations of one
   * row apply in batch order: the later one gets a higher sequence id and sees the earlier one), and
   * at {@link #MINI_BATCH_MAX_ROWS} rows or {@link #MINI_BATCH_MAX_BYTES} bytes. Per mini-batch: one
   * back-pressure check per store touched, the rows' locks, one sequence id, one WAL record holding
   * the cells of every row not written with SKIP_WAL (none if all are), one sync at the strongest
   * durability of those rows, one MVCC completion.
   *
   * <p>Each row is atomic. A mini-batch also becomes visible all at once (one sequence id), but only
   * per-row atomicity is promised, as in HBase: the batch as a whole is not atomic. If a WAL append or
   * sync fails, no row of that mini-batch is acknowledged (this throws) and the engine stops; rows of
   * earlier mini-batches of the batch were applied.
   */
  public void mutateBatch(List<RowWrite> rows) {
    List<RowWrite> checked = checked(rows);
    int start = 0;
    while (start < checked.size()) {
      int end = miniBatchEnd(checked, start);
      try {
        applyMiniBatch(checked.subList(start, end));
      } catch (RegionClosedException e) {
        if (start == 0) {
          throw e;
        }
        // The rows before this mini-batch were applied: the engine re-routes only the rest.
        throw new RegionClosedException(e.getMessage(), start);
      }
      start = end;
    }
  }

  /**
   * The rows with whole-row deletes expanded, each validated: throws before anything is applied.
   *
   * <p>Loops over the cells or rows of a batch live in small methods of their own, here and below:
   * a loop of hundreds of iterations in a big method gets that method compiled on stack (OSR) as
   * well as normally, and on two cores each C2 compilation of the write path costs about a second
   * of CPU while a cold engine warms up.
   */
  private List<RowWrite> checked(List<RowWrite> rows) {
    List<RowWrite> checked = new ArrayList<>(rows.size());
    for (RowWrite w : rows) {
      List<Cell> expanded = expandWholeRowDelete(w.row(), w.cells(), w.wholeRowDeleteTs());
      validate(w.row(), expanded);
      checked.add(new RowWrite(w.row(), expanded, -1, w.durability()));
    }
    return checked;
  }

  /** The end (exclusive) of the mini-batch that starts at {@code start}; it holds at least one row. */
  private static int miniBatchEnd(List<RowWrite> rows, int start) {
    java.util.TreeSet<byte[]> seen = new java.util.TreeSet<>(Bytes::compare);
    long bytes = 0;
    int i = start;
    for (; i < rows.size(); i++) {
      RowWrite w = rows.get(i);
      long rowBytes = 0;
      for (Cell c : w.cells()) {
        rowBytes += 4L + c.length();
      }
      if (i > start && (i - start >= MINI_BATCH_MAX_ROWS || bytes + rowBytes > MINI_BATCH_MAX_BYTES
          || seen.contains(w.row()))) {
        break;
      }
      seen.add(w.row());
      bytes += rowBytes;
    }
    return i;
  }

  /** One mini-batch of distinct rows: back-pressure, locks in stripe order, apply, unlock. */
  private void applyMiniBatch(List<RowWrite> rows) {
    List<Cell> all = cellsOf(rows);
    waitIfBlocked(all);
    int[] stripes = stripesOf(rows);
    int[] locked = {0};
    try {
      lockStripes(stripes, locked);
      applyLocked(rows);
    } finally {
      unlockStripes(stripes, locked[0]);
    }
    afterWrite(all);
  }

  private static List<Cell> cellsOf(List<RowWrite> rows) {
    List<Cell> all = new ArrayList<>();
    for (RowWrite w : rows) {
      all.addAll(w.cells());
    }
    return all;
  }

  /** The row-lock stripes of the rows, sorted (the order every writer locks them in). */
  private int[] stripesOf(List<RowWrite> rows) {
    int[] stripes = new int[rows.size()];
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = rowLocks.stripeOf(rows.get(i).row());
    }
    java.util.Arrays.sort(stripes);
    return stripes;
  }

  /** Locks each distinct stripe once; {@code locked[0]} says how far it got, for the unlock. */
  private void lockStripes(int[] stripes, int[] locked) {
    for (int i = 0; i < stripes.length; i++) {
      if (i == 0 || stripes[i] != stripes[i - 1]) { // rows sharing a stripe: lock it once
        rowLocks.stripe(stripes[i]).lock();
        locked[0] = i + 1;
      }
    }
  }

  private void unlockStripes(int[] stripes, int locked) {
    for (int i = locked - 1; i >= 0; i--) {
      if (i == 0 || stripes[i] != stripes[i - 1]) {
        rowLocks.stripe(stripes[i]).unlock();
      }
    }
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
    if (condition != null && !condition.isFilter()) {
      store(condition.family());
    }
    List<Cell> expanded = expandWholeRowDelete(row, cells, wholeRowDeleteTs);
    validate(row, expanded);
    checkUpdates(updates, expanded);
    List<Cell> probe = new ArrayList<>(expanded);
    for (ColumnUpdate u : updates) {
      probe.add(Cells.put(row, u.family(), u.qualifier(), 0, new byte[8]));
    }
    waitIfBlocked(probe);
    ReentrantLock lock = rowLocks.lockFor(row);
    List<Cell> written;
    List<Cell> values;
    lock.lock();
    try {
      checkOpen(); // a split closed the region while this waited: nothing read, nothing written
      if (condition != null && !condition.holds(readFor(row, condition))) {
        return Outcome.NOT_APPLIED;
      }
      values = newValues(row, updates);
      validate(row, values);
      if (values.isEmpty()) {
        written = expanded;
      } else {
        written = new ArrayList<>(expanded);
        written.addAll(values);
      }
      apply(row, written, durability);
    } finally {
      lock.unlock();
    }
    afterWrite(written);
    if (!returnValues) {
      return new Outcome(true, List.of());
    }
    List<Cell> sorted = new ArrayList<>(values);
    sorted.sort(io.bellows.cell.CellComparator.INSTANCE);
    return new Outcome(true, sorted);
  }

  /**
   * Refuses updates that would leave the result undefined: one column updated twice, or updated and
   * also written or deleted by the same operation (its cells would share a sequence id, and a
   * tombstone at the same timestamp would hide the new value).
   */
  private void checkUpdates(List<ColumnUpdate> updates, List<Cell> cells) {
    for (int i = 0; i < updates.size(); i++) {
      ColumnUpdate u = updates.get(i);
      store(u.family());
      for (int j = 0; j < i; j++) {
        if (u.sameColumn(updates.get(j))) {
          throw new IllegalArgumentException("column " + u.column() + " is updated twice in one operation");
        }
      }
      for (Cell c : cells) {
        boolean familyDelete = c.type() == CellType.DELETE_FAMILY && Bytes.equals(c.array(), c.familyOffset(),
            c.familyLength(), u.family(), 0, u.family().length);
        if (familyDelete || u.sameColumn(c)) {
          throw new IllegalArgumentException("column " + u.column() + " is both updated and "
              + (familyDelete ? "deleted with its family" : "written or deleted") + " in one operation");
        }
      }
    }
  }

  /** What the condition reads: its column's newest version in its time range, or the filtered row. */
  private List<Cell> readFor(byte[] row, Condition condition) {
    ScanQuery.Builder q = ScanQuery.builder().singleRow(row).readPoint(Long.MAX_VALUE)
        .timeRange(condition.minTimestamp(), condition.maxTimestamp());
    if (condition.isFilter()) {
      q.filter(condition.filter());
    } else {
      q.addColumn(condition.family(), condition.qualifier());
    }
    return readLatest(q.build());
  }

  /**
   * The cells the updates write: each from its column's newest value (in the update's time range),
   * stamped {@code max(now, that value's timestamp)}.
   */
  private List<Cell> newValues(byte[] row, List<ColumnUpdate> updates) {
    if (updates.isEmpty()) {
      return List.of();
    }
    Cell[] current = new Cell[updates.size()];
    // One read per distinct time range, of all its columns at once (an Increment's or an Append's
    // columns share one range, so a counter row of N columns is one read, not N).
    boolean[] read = new boolean[updates.size()];
    for (int i = 0; i < updates.size(); i++) {
      if (read[i]) {
        continue;
      }
      ColumnUpdate first = updates.get(i);
      ScanQuery.Builder q = ScanQuery.builder().singleRow(row).readPoint(Long.MAX_VALUE)
          .timeRange(first.minTimestamp(), first.maxTimestamp());
      List<Integer> group = new ArrayList<>();
      for (int j = i; j < updates.size(); j++) {
        ColumnUpdate u = updates.get(j);
        if (!read[j] && u.minTimestamp() == first.minTimestamp() && u.maxTimestamp() == first.maxTimestamp()) {
          q.addColumn(u.family(), u.qualifier());
          group.add(j);
          read[j] = true;
        }
      }
      List<Cell> cells = readLatest(q.build());
      for (int j : group) {
        for (Cell c : cells) { // a column's newest version comes first
          if (updates.get(j).sameColumn(c)) {
            current[j] = c;
            break;
          }
        }
      }
    }
    long now = services.options().clock().currentTimeMillis();
    List<Cell> out = new ArrayList<>(updates.size());
    for (int i = 0; i < updates.size(); i++) {
      ColumnUpdate u = updates.get(i);
      long ts = current[i] == null ? now : Math.max(now, current[i].timestamp());
      out.add(Cells.put(row, u.family(), u.qualifier(), ts, u.newValue(current[i])));
    }
    return out;
  }

  private List<Cell> expandWholeRowDelete(byte[] row, List<Cell> cells, long wholeRowDeleteTs) {
    if (wholeRowDeleteTs < 0) {
      return cells;
    }
    List<Cell> out = new ArrayList<>();
    for (ColumnFamilyDescriptor f : descriptor.families()) {
      out.add(Cells.create(row, f.nameBytes(), Bytes.EMPTY, wholeRowDeleteTs, CellType.DELETE_FAMILY, Bytes.EMPTY));
    }
    return out;
  }

  /**
   * Checks one row of a batch as {@link #mutateBatch} would, without applying anything: the engine
   * checks every row of a batch that spans regions before any region applies its part.
   */
  public void validate(RowWrite w) {
    validate(w.row(), expandWholeRowDelete(w.row(), w.cells(), w.wholeRowDeleteTs()));
  }

  /** Makes replayed edits visible: called once after WAL replay, before any new write. */
  public void recovered(long highestSeqId) {
    mvcc.advanceTo(highestSeqId);
  }

  /**
   * Checks a mutation without applying it (families exist, value sizes, one row); throws
   * IllegalArgumentException or NoSuchColumnFamilyException.
   */
  private void validate(byte[] row, List<Cell> cells) {
    long maxValue = settings.maxValueSize();
    for (Cell c : cells) {
      storeOf(c);
      if (c.valueLength() > maxValue) {
        throw new IllegalArgumentException("value of " + c.valueLength() + " bytes exceeds "
            + Knobs.MAX_VALUE_SIZE.name() + " = " + maxValue);
      }
      if (Bytes.compare(c.array(), c.rowOffset(), c.rowLength(), row, 0, row.length) != 0) {
        throw new IllegalArgumentException("all cells of a mutation must be of its row");
      }
    }
  }

  /** Under the row lock: stamps, logs, inserts, syncs and publishes one mutation. */
  private void apply(byte[] row, List<Cell> cells, Durability requested) {
    applyLocked(List.of(new RowWrite(row, cells, -1, requested)));
  }

  /**
   * Under the locks of all its rows (distinct): stamps, logs, inserts, syncs and publishes a
   * mini-batch. One sequence id for every cell; one WAL record with the cells of the rows whose
   * durability is not SKIP_WAL, synced at the strongest of their durabilities.
   */
  private void applyLocked(List<RowWrite> rows) {
    checkOpen();
    Stamped batch = stamp(rows, services.options().clock().currentTimeMillis());
    List<Cell> stamped = batch.cells();
    List<Cell> logged = batch.logged();
    Durability durability = batch.durability();
    if (stamped.isEmpty()) {
      return;
    }
    Mvcc.WriteEntry we;
    long txid = -1;
    updatesLock.readLock().lock();
    try {
      // Again under the lock: a split closes the region while it holds the lock in write mode, and
      // nothing may enter a closed region (its memory is no longer flushed anywhere).
      checkOpen();
      we = mvcc.begin();
      setSeqIds(stamped, we.seqId());
      try {
        if (logged != null) {
          txid = services.wal().append(new WriteRecord(regionId, we.seqId(), logged));
        }
      } catch (RuntimeException e) {
        mvcc.complete(we); // nothing was inserted: completing publishes nothing
        if (services.wal().failed()) {
          services.walFailed(e);
          throw new StorageException("write-ahead log append failed; the engine stops accepting writes", e);
        }
        // The log works but could not take this edit (its first file could not be made): this
        // write fails alone, and the next one tries again.
        throw new StorageException("write-ahead log append failed; nothing of the write was applied", e);
      }
      addToStores(stamped);
    } finally {
      updatesLock.readLock().unlock();
    }
    try {
      if (txid >= 0) {
        services.wal().sync(txid, durability);
      }
    } catch (RuntimeException e) {
      // The log could not make the write durable (and could not heal itself): it must not become
      // visible, for a crash could take it back. It stays invisible until resume() recovers the log,
      // which makes it durable first; the engine refuses writes meanwhile.
      mvcc.park(we);
      services.walFailed(e);
      throw new StorageException("write-ahead log sync failed: the write was not acknowledged and is not visible;"
          + " writes are refused until Bellows.resume() recovers the log or the engine is reopened", e);
    }
    if (!mvcc.completeAndWait(we)) { // return only once the write is visible
      throw new StorageException("the write is applied but not visible: an earlier write of the region waits for"
          + " the write-ahead log to recover (Bellows.resume()); until then neither is acknowledged");
    }
  }

  /** The log recovered: every write whose sync had failed is durable now, and becomes visible. */
  public void logRecovered() {
    mvcc.releaseParked();
  }

  /**
   * A mini-batch's cells with concrete timestamps, those of its rows that go to the WAL (null if
   * none does; the same list when a single row does), and the strongest durability of those rows.
   */
  private record Stamped(List<Cell> cells, List<Cell> logged, Durability durability) {}

  private Stamped stamp(List<RowWrite> rows, long now) {
    List<Cell> stamped = new ArrayList<>();
    List<Cell> logged = null;
    Durability durability = Durability.SKIP_WAL;
    for (RowWrite w : rows) {
      int from = stamped.size();
      stampRow(w, now, stamped);
      if (stamped.size() == from) {
        continue;
      }
      List<Cell> rowCells = stamped.subList(from, stamped.size());
      Durability d = effectiveDurability(w.durability(), rowCells);
      if (d != Durability.SKIP_WAL) {
        if (logged == null) {
          logged = rows.size() == 1 ? stamped : new ArrayList<>();
        }
        if (logged != stamped) {
          logged.addAll(rowCells);
        }
        durability = Durability.stronger(durability, d);
      }
    }
    return new Stamped(stamped, logged, durability);
  }

  private void stampRow(RowWrite w, long now, List<Cell> out) {
    for (Cell c : w.cells()) {
      Cell s = resolveTimestamp(w.row(), c, now);
      if (s != null) {
        out.add(s);
      }
    }
  }

  private static void setSeqIds(List<Cell> cells, long seqId) {
    for (Cell c : cells) {
      c.setSeqId(seqId);
    }
  }

  /**
   * A fresh cell with a concrete timestamp (callers' cell objects are never published). A LATEST
   * cell is copied in one piece and stamped in the copy: the caller's cell stays as it was (a put
   * may be sent again), and no field is copied out and serialized again.
   */
  private Cell resolveTimestamp(byte[] row, Cell c, long now) {
    if (c.timestamp() != Long.MAX_VALUE) {
      return new Cell(c.array(), c.offset(), c.length(), 0);
    }
    long ts = now;
    if (c.typeCode() == CellType.DELETE.code()) {
      Cell latest = latestCell(row, c.family(), c.qualifier());
      if (latest == null) {
        return null; // deleting the latest version of an absent column does nothing
      }
      ts = latest.timestamp();
    }
    byte[] copy = java.util.Arrays.copyOfRange(c.array(), c.offset(), c.offset() + c.length());
    Cell stamped = new Cell(copy, 0, copy.length, 0);
    Bytes.putLong(copy, stamped.timestampOffset(), ts);
    return stamped;
  }

  /**
   * A write's durability: its own if it asks for one; else the strongest of its families', where a
   * family without a durability of its own has the table's ({@code defaultDurability}), so that a
   * SKIP_WAL family never takes another family's cells out of the WAL.
   */
  private Durability effectiveDurability(Durability requested, List<Cell> cells) {
    if (requested != null && requested != Durability.USE_DEFAULT) {
      return requested;
    }
    Durability table = settings.defaultDurability();
    if (!anyFamilyDurability) {
      return table;
    }
    Durability d = Durability.USE_DEFAULT;
    for (Cell c : cells) { // validate() has checked the families
      Durability f = familyDurability[storeIndexOf(c)];
      d = Durability.stronger(d, f == Durability.USE_DEFAULT ? table : f);
    }
    return d == Durability.USE_DEFAULT ? table : d;
  }


  /** The newest visible cell of a column including all completed writes (caller holds the row lock). */
  private Cell latestCell(byte[] row, byte[] family, byte[] qualifier) {
    List<Cell> cells = readLatest(ScanQuery.builder().singleRow(row).addColumn(family, qualifier)
        .readPoint(Long.MAX_VALUE).build());
    return cells.isEmpty() ? null : cells.get(0);
  }

  /** A single-row read including all completed writes (caller holds the row lock). */
  private List<Cell> readLatest(ScanQuery q) {
    List<Cell> cells = new ArrayList<>();
    try (RegionScanner s = new RegionScanner(this, q, Long.MAX_VALUE, false)) {
      s.nextRow(cells);
    }
    return cells;
  }

  /**
   * Back-pressure, before the row lock: refuses the write if the engine stopped accepting writes,
   * and waits while a store of the write is over its memory or file limit.
   */
  private void waitIfBlocked(List<Cell> cells) {
    services.checkWritesAllowed();
    refuseWritesToDamagedStores(cells);
    long bytes = bytesOf(cells);
    services.admitWrite(this, bytes);
    double multiplier = blockMultiplier;
    long maxWaitNanos = blockingWaitNanos;
    for (Store s : storesOf(cells)) {
      long footprint = s.memStoreSize().footprint(); // read once: it sums counters
      boolean memoryFull = footprint > multiplier * descriptor.flushSize();
      if (!memoryFull && !s.tooManyFiles()) {
        paceNearLimits(s, footprint, bytes);
        continue;
      }
      long start = System.nanoTime();
      // The cause is what was seen above: asking the store again could find the memory freed by a
      // flush that ended meanwhile and name the files instead.
      EventListener.StallCause cause = memoryFull
          ? EventListener.StallCause.MEMSTORE_FULL : EventListener.StallCause.TOO_MANY_FILES;
      services.events().writeStallBegin(new EventListener.WriteStallInfo(descriptor.name(), s.family().name(),
          cause, Duration.ZERO));
      warnBlocked(s, start);
      long deadline = start + maxWaitNanos;
      try {
        synchronized (flushSignal) {
          // Memory full: wait for a flush to free it, however long a working flush takes; but while
          // flushes fail, only until the deadline: then the engine stops accepting writes and this
          // one is refused (nothing of it is applied). Writes stopped meanwhile end the wait too.
          while (!closed && s.flushBlocked(multiplier)) {
            services.checkWritesAllowed();
            RuntimeException failure = flushFailure;
            long now = System.nanoTime();
            if (failure != null && now - deadline >= 0) {
              throw services.flushStalled(this, failure);
            }
            services.requestFlush(this);
            if (failure == null) {
              flushSignal.wait();
            } else {
              TimeUnit.NANOSECONDS.timedWait(flushSignal, Math.max(1, deadline - now));
            }
          }
          while (!closed && s.tooManyFiles() && System.nanoTime() < deadline) {
            services.checkWritesAllowed();
            services.requestCompaction(this);
            long left = deadline - System.nanoTime();
            TimeUnit.NANOSECONDS.timedWait(flushSignal, Math.max(1, left));
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StorageException("interrupted while waiting for a flush", e);
      } finally {
        // The engine's writes.blocked metrics come from these events (io.bellows.metrics.EventMetrics).
        services.events().writeStallEnd(new EventListener.WriteStallInfo(descriptor.name(), s.family().name(),
            cause, Duration.ofNanos(System.nanoTime() - start)));
      }
    }
  }

  /**
   * The corruption policy: refuses the write if a store it touches met a damaged file (see {@link
   * Store#checkWritable}); writes to the region's other stores go on. Costs one volatile read per
   * store while no store is damaged.
   */
  private void refuseWritesToDamagedStores(List<Cell> cells) {
    for (Store s : storeArray) {
      if (s.damage() != null) {
        for (Store touched : storesOf(cells)) {
          touched.checkWritable();
        }
        return;
      }
    }
  }

  private static long bytesOf(List<Cell> cells) {
    long bytes = 0;
    for (Cell c : cells) {
      bytes += c.length();
    }
    return bytes;
  }

  /**
   * Slows a write down while its store nears a limit, so that writers meet a falling rate rather
   * than a sudden stall: memory from (multiplier − 1) × flush size (at least the flush size) up to
   * multiplier × flush size, files from three quarters of the blocking count up to it.
   */
  private void paceNearLimits(Store s, long footprint, long bytes) {
    double flushSize = descriptor.flushSize();
    double memoryLimit = blockMultiplier * flushSize;
    double memoryStart = Math.max(flushSize, memoryLimit - flushSize);
    double memory = zonePosition(footprint, memoryStart, memoryLimit);
    double files = zonePosition(s.fileCount(), blockingFiles * 0.75, blockingFiles);
    if (memory > 0 && memory >= files) {
      services.paceWrite(bytes, memory, "store.memory");
    } else if (files > 0) {
      services.paceWrite(bytes, files, "store.files");
    }
  }

  /** Where {@code value} lies from {@code start} (0) to {@code limit} (1); 0 when the zone is empty. */
  private static double zonePosition(double value, double start, double limit) {
    return limit <= start ? 0 : (value - start) / (limit - start);
  }

  /** Blocking is never silent: a warning at most every 10 s per region, and the metrics. */
  private void warnBlocked(Store s, long now) {
    long last = lastBlockWarning.get();
    if (now - last > TimeUnit.SECONDS.toNanos(10) && lastBlockWarning.compareAndSet(last, now)) {
      LOG.warn("writes to {}:{} are blocked: memory store {} bytes (flush size {}), {} files; waiting for"
          + " flush/compaction", descriptor.name(), s.family().name(), s.memStoreSize().footprint(),
          descriptor.flushSize(), s.fileCount());
    }
  }

  /** The distinct stores the cells belong to (each checked once however many rows a batch has). */
  private List<Store> storesOf(List<Cell> cells) {
    List<Store> out = new ArrayList<>(storeArray.length);
    Store last = null;
    for (Cell c : cells) {
      Store s = storeOf(c);
      if (s != last && !out.contains(s)) {
        out.add(s);
      }
      last = s;
    }
    return out;
  }

  private void afterWrite(List<Cell> cells) {
    services.wrote(this);
    for (Store s : storesOf(cells)) {
      if (s.memStoreSize().footprint() >= descriptor.flushSize()) {
        if (flushRequested.compareAndSet(false, true)) {
          services.requestFlush(this);
        }
        return;
      }
    }
  }

  /**
   * Replays one WAL edit at open: cells of stores whose files already hold the edit are skipped.
   * Returns whether any cell was applied (false: the edit was flushed already).
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
    checkOpen();
    long rp = readPoints.open();
    try {
      return new RegionScanner(this, query.toBuilder().readPoint(rp).build(), rp, true);
    } catch (RuntimeException e) {
      readPoints.close(rp);
      throw e;
    }
  }

  void readerClosed(long rp) {
    readPoints.close(rp);
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
    flushLock.lock();
    try {
      flushRequested.set(false);
      if (closed) {
        return NOTHING_FLUSHED; // closed while this waited (a split or a disable flushed it first)
      }
      List<Store> prepared = new ArrayList<>();
      updatesLock.writeLock().lock();
      try {
        boolean wholeRegion = all;
        if (!all && settings.flushPolicy() == io.bellows.config.FlushPolicy.REGION) {
          for (Store s : stores.values()) {
            wholeRegion |= wantsFlush(s);
          }
        }
        // Under the write lock every sequence id assigned so far is in the memory stores (or was
        // dropped there as redundant): each snapshot covers the region's edits up to this one.
        long upTo = services.sequence().get();
        for (Store s : stores.values()) {
          if ((wholeRegion || wantsFlush(s)) && s.prepareFlush(upTo)) {
            prepared.add(s);
          }
        }
      } finally {
        updatesLock.writeLock().unlock();
      }
      try {
        if (!prepared.isEmpty() && services.wal() != null) {
          // Everything logged before the snapshot, in every region, becomes durable before the
          // snapshot's files do: what survives a power loss stays a prefix of the log.
          services.wal().forceAppended();
        }
        for (Store s : prepared) {
          s.flush();
        }
      } catch (RuntimeException e) {
        flushFailure = e;
        throw e;
      }
      flushFailure = null;
      if (prepared.isEmpty()) {
        return NOTHING_FLUSHED;
      }
      for (Store s : prepared) {
        if (!s.selectMinor().isEmpty()) {
          services.requestCompaction(this);
          break;
        }
      }
      return oldestUnflushedSeqId();
    } finally {
      flushLock.unlock();
      synchronized (flushSignal) {
        flushSignal.notifyAll();
      }
    }
  }

  /**
   * Flushes until no store holds data in memory, for the callers that rely on every edit being in
   * sorted files afterwards (a split, a snapshot, an alter, a close). One flush may not be enough:
   * after a flush failed, a store first writes that failed flush's snapshot, and what came into its
   * memory since stays there. Throws if data is still in memory after three rounds (a writer got in:
   * the caller did not hold the updates lock) rather than let the caller drop it.
   */
  private void flushAll() {
    for (int round = 1; ; round++) {
      flush(true);
      if (!anyStoreHoldsCells()) {
        return;
      }
      if (round == 3) {
        throw new StorageException("region " + regionId + " of table '" + descriptor.name() + "' still holds data in"
            + " memory after flushing three times");
      }
    }
  }

  private boolean anyStoreHoldsCells() {
    for (Store s : storeArray) {
      if (s.memStoreSize().cellCount() > 0) {
        return true;
      }
    }
    return false;
  }

  // ================================================================== split

  /**
   * Blocks writes and flushes of this region and flushes every store, for a split: takes the flush
   * lock, then the updates lock in write mode (the order a flush takes them), flushes all, and
   * keeps compactions out. Reads go on. Every edit of the region is then in its sorted files, and no
   * write enters until {@link #unblockAfterSplit}. On failure everything is released and it throws.
   */
  public void blockForSplit() {
    block(true);
  }

  /**
   * Blocks writes, flushes and compactions of this region as {@link #blockForSplit} does, for a
   * snapshot: with {@code flush}, every store is flushed first (the snapshot then holds every write
   * made before the block); without, the files hold what was flushed before (HBase's SKIP_FLUSH).
   * Release with {@link #unblockAfterSplit}.
   */
  public void blockForSnapshot(boolean flush) {
    block(flush);
  }

  private void block(boolean flushFirst) {
    flushLock.lock();
    updatesLock.writeLock().lock();
    int blocked = 0;
    try {
      if (flushFirst) {
        flushAll();
      }
      for (Store s : storeArray) {
        s.blockCompactions();
        blocked++;
      }
    } catch (RuntimeException e) {
      for (int i = 0; i < blocked; i++) {
        storeArray[i].unblockCompactions();
      }
      updatesLock.writeLock().unlock();
      flushLock.unlock();
      throw e;
    }
  }

  /**
   * Releases what {@link #blockForSplit} took. If the split committed, the region was closed
   * meanwhile, and writers waiting for it find it closed and go to the daughters.
   */
  public void unblockAfterSplit() {
    for (Store s : storeArray) {
      s.unblockCompactions();
    }
    updatesLock.writeLock().unlock();
    flushLock.unlock();
    synchronized (flushSignal) {
      flushSignal.notifyAll();
    }
  }

  /** Creates a daughter region's store directories in {@code target}: hard links to this region's files. */
  public void linkStoresInto(Path target) {
    for (Store s : storeArray) {
      s.linkInto(target.resolve(s.family().name()));
    }
  }

  /**
   * A split key for this region: the first row of the middle data block of the largest file of its
   * largest store (by file bytes), if that row lies strictly inside the region's range; else null.
   */
  public byte[] midKey() {
    io.bellows.store.StoreFile largest = null;
    for (Store s : storeArray) {
      for (io.bellows.store.StoreFile f : s.files()) {
        if (largest == null || f.size() > largest.size()) {
          largest = f;
        }
      }
    }
    if (largest == null) {
      return null;
    }
    byte[] mid = largest.midRow();
    if (mid == null || Bytes.compare(mid, startKey) <= 0 || !containsRow(mid)) {
      return null;
    }
    return mid;
  }

  /**
   * Whether a sorted file of this region holds rows outside its range: a daughter of a split whose
   * linked files no compaction has rewritten yet (by the files' first and last rows).
   */
  public boolean holdsRowsOutsideRange() {
    for (Store s : storeArray) {
      for (io.bellows.store.StoreFile f : s.files()) {
        byte[] first = f.metadata().firstRow();
        byte[] last = f.metadata().lastRow();
        if (first != null && Bytes.compare(first, startKey) < 0) {
          return true;
        }
        if (last != null && endKey.length > 0 && Bytes.compare(last, endKey) >= 0) {
          return true;
        }
      }
    }
    return false;
  }

  /** Runs a compaction of every store (minor: only where the policy picks files). */
  /** Whether a store's memory store has reached the flush size, or blocks writers. */
  private boolean wantsFlush(Store s) {
    return s.memStoreSize().footprint() >= descriptor.flushSize() || s.flushBlocked(1.0);
  }

  public void compact(boolean major) {
    for (Store s : stores.values()) {
      s.compact(major);
    }
    synchronized (flushSignal) {
      flushSignal.notifyAll();
    }
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
    synchronized (flushSignal) {
      flushSignal.notifyAll();
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new RegionClosedException("table '" + descriptor.name() + "' is closed");
    }
  }

  /** Flushes (if {@code flush}) and closes every store; wakes blocked writers. */
  public void close(boolean flush) {
    if (flush && !closed) {
      // Writes wait while the region flushes and closes: one that got in after the last flush would
      // be dropped with the memory (or keep the memory from emptying).
      flushLock.lock();
      updatesLock.writeLock().lock();
      try {
        flushAll();
        closed = true;
      } finally {
        updatesLock.writeLock().unlock();
        flushLock.unlock();
      }
    }
    closed = true;
    synchronized (flushSignal) {
      flushSignal.notifyAll();
    }
    flushLock.lock();
    try {
      for (Store s : stores.values()) {
        s.close();
      }
    } finally {
      flushLock.unlock();
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
