package io.bellows.region;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.config.Durability;
import io.bellows.record.WriteRecord;
import io.bellows.store.Store;
import io.bellows.util.Bytes;
import io.bellows.util.StorageException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The three steps of every write of a region, taken under the row locks of its rows (distinct): a
 * single-row mutation, an atomic row operation or a mini-batch of a batch. The locks are held
 * through the evaluation, the append and the insert ({@link #logAndInsert}) and released before the
 * wait for durability and visibility ({@link #finish}): early lock release, as HBase 0.94 did
 * before its sync.
 *
 * <ol>
 *   <li><b>evaluate</b> ({@link #evaluate}): every cell gets a concrete timestamp in a fresh cell
 *       object, a delete of the latest version becomes a delete of that version's timestamp (or
 *       nothing), and the write's durability is decided per row. The result, an {@link Evaluated},
 *       is the body of the {@link WriteRecord}: the cells of the logged rows first, then those of
 *       SKIP_WAL rows (which never leave the region). Conditions, increments and appends were
 *       decided before, under the same row lock ({@link AtomicRowWrite}).
 *   <li><b>log</b>: under the updates lock, the write's sequence id completes the record, which is
 *       {@linkplain RegionLog#append appended} to the region's log; after the stores took its cells
 *       (below) and the row locks are released, the writer waits until the log made it as durable
 *       as it asks ({@link RegionLog#awaitDurable}).
 *   <li><b>apply</b>: the cells are inserted into the stores (still under the updates lock, so a
 *       flush sees every assigned sequence id below its own in the memory stores), and once the log
 *       step says durable, MVCC publishes the write: it becomes visible all at once.
 * </ol>
 *
 * The insert sits between the append and the wait for durability, as in HBase: it overlaps the
 * group commit, and a write whose sync fails is already in the stores, where it stays invisible
 * ({@link Mvcc#park}) until the log recovers and makes it durable ({@link Region#logRecovered}).
 *
 * <p>With a log that {@linkplain RegionLog#appliesRecords applies records} (a replicated region)
 * the steps part: the writer takes the log's epoch ({@link #beginEvaluation}) before it reads
 * anything, evaluates, and {@linkplain RegionLog#propose proposes} the record without a sequence
 * id; the log commits it and the region applies it on every replica ({@link #applyCommitted}), with
 * the id the log gave it. The writer keeps its rows' locks until the apply on its own replica, so
 * the next write to a row evaluates against this one; a batch of plain writes, which reads nothing,
 * releases them once its records are in the log and leaves them pending on the rows, for the next
 * writer that reads a row to wait for ({@link RowLocks#awaitPending}).
 */
final class WriteSteps {
  private final Region region;
  private final Mvcc mvcc;
  private final ReentrantReadWriteLock updatesLock;
  private final RegionServices services;
  private final RegionLog log;
  private final RegionOptions settings;
  /** Each store's FAMILY_DURABILITY, by position in the region's store array. */
  private final Durability[] familyDurability;
  /** Whether some family has a durability of its own (else a write's is its request's or the default). */
  private final boolean anyFamilyDurability;
  /** Whether the log applies the records itself ({@link RegionLog#appliesRecords}), asked once. */
  private final boolean logApplies;

  WriteSteps(Region region, Mvcc mvcc, ReentrantReadWriteLock updatesLock, RegionServices services,
      RegionOptions settings, Durability[] familyDurability) {
    this.region = region;
    this.mvcc = mvcc;
    this.updatesLock = updatesLock;
    this.services = services;
    this.log = services.log();
    this.settings = settings;
    this.familyDurability = familyDurability;
    boolean any = false;
    for (Durability d : familyDurability) {
      any |= d != Durability.USE_DEFAULT;
    }
    this.anyFamilyDurability = any;
    this.logApplies = log != null && log.appliesRecords();
  }

  /**
   * A write evaluated against the region: its cells with concrete timestamps, the first {@code
   * logged} of them those of rows that go to the log (in row order), and the strongest durability
   * of those rows.
   */
  record Evaluated(List<Cell> cells, int logged, Durability durability) {
    /** The record the log takes: the logged cells under {@code seqId} (the same list when all are logged). */
    WriteRecord record(int regionId, long seqId) {
      return new WriteRecord(regionId, seqId, logged == cells.size() ? cells : cells.subList(0, logged));
    }

    /**
     * The record a log that applies records takes: every cell, for a replica that did not get a
     * cell would differ from the others (SKIP_WAL means nothing to a replicated log); no sequence id
     * yet.
     */
    WriteRecord proposal(int regionId) {
      return new WriteRecord(regionId, 0, cells);
    }
  }

  /**
   * The epoch of a write about to be evaluated, taken under its rows' locks before anything of the
   * region is read: the log's ({@link RegionLog#beginEvaluation}) if it applies records, else 0.
   */
  long beginEvaluation() {
    return logApplies ? log.beginEvaluation() : 0;
  }

  /**
   * A write that is in the log and in the stores, not yet durable nor visible: its writer {@linkplain
   * #finish finishes} it after releasing its rows' locks.
   */
  static final class Logged {
    /** Nothing left to wait for: the log applied the write already. */
    static final Logged DONE = new Logged(null, -1, null);
    /**
     * Nothing was written, but the evaluation read under the row locks: the writes it may have read
     * (released early, not visible yet) must be visible before the writer returns.
     */
    static final Logged NOTHING = new Logged(null, -1, null);

    private final Mvcc.WriteEntry entry;
    private final long ticket;
    private final Durability durability;

    private Logged(Mvcc.WriteEntry entry, long ticket, Durability durability) {
      this.entry = entry;
      this.ticket = ticket;
      this.durability = durability;
    }
  }

  /**
   * Under the locks of all its rows (distinct), the part of a write that needs them: evaluates, and
   * appends to the log and inserts into the stores as one write with one sequence id (with a log
   * that applies records: proposes, and returns once applied). The caller then releases the locks
   * and {@linkplain #finish finishes} the write: the wait for durability and visibility needs no
   * row lock (early lock release), so the next writer of a hot row does not wait for this one's
   * sync. That writer evaluates against this write's cells, which it reads at read point {@code
   * Long.MAX_VALUE}, and cannot be acknowledged before it: its record follows this one in the log,
   * whose syncs cover a prefix, and its sequence id is larger, so MVCC publishes it after this one;
   * if this one's sync fails, the log fails and the next one's sync fails too.
   */
  Logged logAndInsert(List<Region.RowWrite> rows, long epoch) {
    region.checkOpen();
    Evaluated e = evaluate(rows, services.options().clock().currentTimeMillis());
    if (e.cells().isEmpty()) {
      return Logged.NOTHING;
    }
    if (logApplies) {
      log.propose(epoch, e.proposal(region.id())); // returns once applied here: durable and visible
      return Logged.DONE;
    }
    Mvcc.WriteEntry we;
    long ticket = -1;
    updatesLock.readLock().lock();
    try {
      // Again under the lock: a split closes the region while it holds the lock in write mode, and
      // nothing may enter a closed region (its memory is no longer flushed anywhere).
      region.checkOpen();
      we = mvcc.begin();
      setSeqIds(e.cells(), we.seqId());
      if (e.logged() > 0) {
        ticket = append(e.record(region.id(), we.seqId()), we);
      }
      insert(e.cells());
    } finally {
      updatesLock.readLock().unlock();
    }
    mvcc.logged(we, ticket, e.durability()); // from now on a writer behind it may complete it
    return new Logged(we, ticket, e.durability());
  }

  /** Whether the region's log applies the records itself (a replicated region): see {@link #proposeAsync}. */
  boolean logApplies() {
    return logApplies;
  }

  /**
   * With a log that {@linkplain RegionLog#appliesRecords applies records}, under the rows' locks:
   * evaluates the rows and proposes their record without waiting for it to commit; the future
   * completes once it is applied on this replica (at once if there is nothing to write); the
   * record has its place in the log when this returns. Evaluation reads the region only for a delete of a row's latest
   * version ({@link #readsRegion}): a writer with earlier proposals of its own pending waits for
   * them before it evaluates such rows.
   */
  CompletableFuture<Void> proposeAsync(List<Region.RowWrite> rows, long epoch) {
    region.checkOpen();
    Evaluated e = evaluate(rows, services.options().clock().currentTimeMillis());
    if (e.cells().isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    return log.proposeAsync(epoch, e.proposal(region.id()));
  }

  /** Whether evaluating the rows reads the region: a delete of a column's latest version does. */
  static boolean readsRegion(List<Region.RowWrite> rows) {
    for (Region.RowWrite w : rows) {
      for (Cell c : w.cells()) {
        if (c.typeCode() == CellType.DELETE.code() && c.timestamp() == Long.MAX_VALUE) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The rest of a write after its rows' locks were released: waits until the log made it as durable
   * as it asks, then publishes it; returns once it is visible (read-your-writes).
   */
  void finish(Logged logged) {
    if (logged == Logged.NOTHING) {
      awaitReadVisible();
      return;
    }
    if (logged.entry == null) {
      return;
    }
    if (logged.ticket >= 0) {
      awaitDurable(logged.ticket, logged.durability, logged.entry);
    }
    publish(logged.entry);
  }

  // ------------------------------------------------------------------ evaluate

  /**
   * The rows' cells with concrete timestamps ({@code now} for LATEST), those of the logged rows
   * first, and the strongest durability of the logged rows. Allocates no list beyond the one it
   * returns unless a row is SKIP_WAL.
   */
  Evaluated evaluate(List<Region.RowWrite> rows, long now) {
    List<Cell> cells = new ArrayList<>();
    List<Cell> unlogged = null;
    Durability durability = Durability.SKIP_WAL;
    for (Region.RowWrite w : rows) {
      int from = cells.size();
      stampRow(w, now, cells);
      if (cells.size() == from) {
        continue;
      }
      List<Cell> rowCells = cells.subList(from, cells.size());
      Durability d = effectiveDurability(w.durability(), rowCells);
      if (d == Durability.SKIP_WAL) {
        if (unlogged == null) {
          unlogged = new ArrayList<>();
        }
        unlogged.addAll(rowCells);
        rowCells.clear();
      } else {
        durability = Durability.stronger(durability, d);
      }
    }
    int logged = cells.size();
    if (unlogged != null) {
      cells.addAll(unlogged);
    }
    return new Evaluated(cells, logged, durability);
  }

  private void stampRow(Region.RowWrite w, long now, List<Cell> out) {
    for (Cell c : w.cells()) {
      Cell s = resolveTimestamp(w.row(), c, now);
      if (s != null) {
        out.add(s);
      }
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
      Cell latest = region.reads().latestCell(row, c.family(), c.qualifier());
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
      Durability f = familyDurability[region.storeIndexOf(c)];
      d = Durability.stronger(d, f == Durability.USE_DEFAULT ? table : f);
    }
    return d == Durability.USE_DEFAULT ? table : d;
  }

  private static void setSeqIds(List<Cell> cells, long seqId) {
    for (Cell c : cells) {
      c.setSeqId(seqId);
    }
  }

  // ------------------------------------------------------------------ log

  /** Appends the record to the region's log (updates lock held); returns the ticket to wait on. */
  private long append(WriteRecord record, Mvcc.WriteEntry we) {
    try {
      return log.append(record);
    } catch (RuntimeException e) {
      mvcc.complete(we); // nothing was inserted: completing publishes nothing
      if (log.failed()) {
        services.walFailed(e);
        throw new StorageException("write-ahead log append failed; the engine stops accepting writes", e);
      }
      // The log works but could not take this record (its first file could not be made): this
      // write fails alone, and the next one tries again.
      throw new StorageException("write-ahead log append failed; nothing of the write was applied", e);
    }
  }

  /** Waits until the log made the record durable as asked; parks the write if it cannot. */
  private void awaitDurable(long ticket, Durability durability, Mvcc.WriteEntry we) {
    try {
      log.awaitDurable(ticket, durability);
    } catch (RuntimeException e) {
      // The log could not make the write durable (and could not heal itself): it must not become
      // visible, for a crash could take it back. It stays invisible until resume() recovers the log,
      // which makes it durable first; the engine refuses writes meanwhile.
      mvcc.park(we);
      services.walFailed(e);
      throw new StorageException("write-ahead log sync failed: the write was not acknowledged and is not visible;"
          + " writes are refused until Bellows.resume() recovers the log or the engine is reopened", e);
    }
  }

  // ------------------------------------------------------------------ apply

  /** Adds stamped cells to their stores, each run of cells of one store in one call. */
  private void insert(List<Cell> cells) {
    int from = 0;
    Store current = null;
    for (int i = 0; i < cells.size(); i++) {
      Store s = region.storeOf(cells.get(i));
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
   * Applies a record its log committed (see {@link Region#applyCommitted}): under the updates lock
   * the log's id begins the write in MVCC (the source records it, so a flush sees it) and the cells
   * go to the stores; it is visible once this returns. A record at or below the highest id some
   * store flushed is a restart's replay of the log from its last checkpoint: it goes only to the
   * stores that do not hold it (as {@link Region#replay} does), visible at once.
   */
  void applyCommitted(WriteRecord record) {
    long seqId = record.seqId();
    Mvcc.WriteEntry we;
    updatesLock.readLock().lock();
    try {
      region.checkOpen();
      if (seqId <= services.sequenceIds().last()) {
        region.replay(record);
        return;
      }
      we = mvcc.begin(seqId);
      setSeqIds(record.cells(), seqId);
      insert(record.cells());
    } finally {
      updatesLock.readLock().unlock();
    }
    mvcc.complete(we);
  }

  /**
   * For a writer that read under its rows' locks and wrote nothing (a condition that does not hold,
   * a delete of an absent column's latest version): returns once every write it may have read is
   * visible, so that its answer is never based on a write that a reader after it would not see, or
   * that is not acknowledged at all.
   */
  void awaitReadVisible() {
    if (!logApplies && !mvcc.awaitBegunVisible()) {
      throw new StorageException("an earlier write of the region waits for the write-ahead log to recover"
          + " (Bellows.resume()); the answer would depend on it");
    }
  }

  /** Makes the write visible, and returns only once it is (read-your-writes). */
  private void publish(Mvcc.WriteEntry we) {
    if (!mvcc.completeAndWait(we)) {
      throw new StorageException("the write is applied but not visible: an earlier write of the region waits for"
          + " the write-ahead log to recover (Bellows.resume()); until then neither is acknowledged");
    }
  }
}
