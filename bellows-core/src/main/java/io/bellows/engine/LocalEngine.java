package io.bellows.engine;

import io.bellows.atomic.Outcome;
import io.bellows.cache.BlockCache;
import io.bellows.cell.Cell;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.fs.AtomicFiles;
import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.metrics.EventMetrics;
import io.bellows.metrics.JvmMetrics;
import io.bellows.metrics.MetricSet;
import io.bellows.region.OptionsResolver;
import io.bellows.region.Region;
import io.bellows.region.RegionClosedException;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.store.FileNumberAllocator;
import io.bellows.store.Store;
import io.bellows.util.BackgroundError;
import io.bellows.util.DamagedFileException;
import io.bellows.util.EventListener;
import io.bellows.util.StorageException;
import io.bellows.util.TableExistsException;
import io.bellows.util.TableNotEnabledException;
import io.bellows.wal.Wal;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded {@link Engine} over one data directory: catalog, regions, WAL and its retention,
 * background work. Applications use it through {@code io.bellows.client.Bellows}.
 *
 * <p>Thread-safe. One engine per directory: a second open of the same directory fails while the
 * first is open (a file lock). Directory layout: {@code LOCK}, {@code CATALOG}, {@code wal/},
 * {@code tables/<table id>-<name>/<region id>/<family>/} (see docs/FORMAT.md).
 *
 * <p>A table is split into regions by row-key range (fixed when the table is created: {@link
 * #createTable(TableDescriptor, List)}). Each row goes to the region whose range holds it; a batch
 * is split by region, and a scan crosses regions in key order, one region at a time (each at its own
 * read point: a scan across regions is not one snapshot, as in HBase).
 *
 * <p>Sorted files of every store are numbered from one engine-wide counter, started at open above
 * every number found on disk; each open gets a random {@linkplain #instanceId instance id}. Together
 * they name a file's bytes uniquely across stores, tables and reopenings (docs/ARCHITECTURE.md).
 *
 * <p>This class holds the engine's parts together and answers the table operations itself; the
 * parts, each with one job: {@link EngineRecovery} (open), {@link RowRouter} (rows to regions),
 * {@link RegionSplitter}, {@link EngineServices} (what regions get from the engine), {@link
 * WalRetention}, {@link EngineMetrics}, {@link TableSnapshots}, {@link TableAlterer} and {@link
 * CorruptionPolicy}; {@link EngineTables} is the state they share (catalog and routing).
 */
public final class LocalEngine implements Engine {
  private static final Logger LOG = LoggerFactory.getLogger(LocalEngine.class);
  private static final SecureRandom INSTANCE_IDS = new SecureRandom();

  private final FileSystem fs;
  private final Path dir;
  private final DataDirectory layout;
  private final EngineOptions options;
  private final DirectoryLock lock;
  private final MetricSet metrics = new MetricSet();
  private final AtomicLong sequence = new AtomicLong();
  /** The next sorted-file number, engine-wide; set at open above every number on disk. */
  private final AtomicLong nextFileNumber = new AtomicLong(1);
  private final FileNumberAllocator fileNumbers = FileNumberAllocator.over(nextFileNumber);
  private final long instanceId = newInstanceId();
  private final EngineTables tables;
  private final BackgroundWork background;
  private final BackPressure backPressure;
  /** Blocks of sorted files, shared by every store; keys are (file number, offset). */
  private final BlockCache blockCache;
  private final BackgroundErrors errors;
  private final Snapshots snapshots;
  private final WalRetention walRetention;
  private final EngineServices services;
  private final RegionOpener opener;
  private final RegionSplitter splitter;
  private final RowRouter router;
  private final EngineMetrics engineMetrics;
  private final CorruptionPolicy corruption;
  private final TableSnapshots tableSnapshots;
  private final TableAlterer alterer;

  private LocalEngine(FileSystem fs, Path dir, EngineOptions options, SplitListener splitListener) throws IOException {
    this.fs = fs;
    this.dir = dir.toAbsolutePath();
    this.layout = new DataDirectory(fs, this.dir);
    this.snapshots = new Snapshots(fs, this.dir);
    this.options = options;
    AtomicFiles.createDirectories(fs, this.dir); // durably: a new directory's name must survive a power loss
    this.lock = DirectoryLock.acquire(fs, this.dir);
    this.tables = new EngineTables(fs, this.dir);
    List<EventListener> listeners = new ArrayList<>();
    listeners.add(new EventMetrics(metrics)); // first: listeners see the metrics of their event
    listeners.addAll(options.eventListeners());
    Listeners events = new Listeners(listeners);
    this.errors = new BackgroundErrors(events, metrics, options.clock(), options.get(Knobs.FLUSH_FAILURES_STOP_WRITES),
        this::wakeBlockedWriters, "the engine of " + this.dir);
    this.background = new BackgroundWork(options, errors, this::memoryReleased);
    this.walRetention = new WalRetention(tables, sequence, options.get(Knobs.WAL_MAX_FILES), metrics,
        background::requestFlushAll);
    this.backPressure = new BackPressure(options, metrics, events, tables::allRegions, background::requestFlushAll,
        this::checkWritesAllowed);
    ChunkAllocator chunks = EngineChunks.create(options);
    this.blockCache = OptionsResolver.blockCache(options, Runtime.getRuntime().maxMemory());
    this.services = new EngineServices(options, fs, tables, walRetention, sequence, fileNumbers, instanceId, metrics,
        background, chunks, blockCache, backPressure, errors, events);
    this.opener = new RegionOpener(layout, services, sequence);
    this.splitter = new RegionSplitter(fs, layout, tables, opener, sequence, background, errors, metrics, splitListener);
    this.router = new RowRouter(tables, metrics);
    this.engineMetrics = new EngineMetrics(fs, metrics, tables, walRetention, chunks, blockCache, instanceId,
        nextFileNumber);
    this.corruption = new CorruptionPolicy(fs, this.dir, options, errors, events, background, metrics);
    this.tableSnapshots = new TableSnapshots(fs, options, layout, snapshots, tables, opener, splitter, walRetention,
        sequence, fileNumbers);
    this.alterer = new TableAlterer(fs, layout, tables, opener, splitter, errors, sequence, fileNumbers);
    background.afterWork(splitter::maybeSplit);
    background.onDamagedFile(corruption::damagedFileFound);
    metrics.gauge("background.error.state", errors::stateCode);
    metrics.gauge("background.work.failing", errors::failingWork);
    metrics.gauge("corruption.stores.damaged", engineMetrics::damagedStores);
    metrics.gauge("event.listener.failures", events::failures);
    JvmMetrics.register(metrics);
  }

  /**
   * Opens the store in {@code dir}, replaying its WAL; creates it if {@code dir} is missing or
   * empty. A directory that holds files but no {@code CATALOG} is refused without a change: it is
   * not a Bellows store, or its catalog is lost, and taking it for an empty store would delete data.
   */
  public static LocalEngine open(Path dir, EngineOptions options) {
    return open(dir, options, LocalFileSystem.INSTANCE);
  }

  /** Opens the store in {@code dir} of the file system {@code fs}: see {@link #open(Path, EngineOptions)}. */
  public static LocalEngine open(Path dir, EngineOptions options, FileSystem fs) {
    return open(dir, options, fs, SplitListener.NONE);
  }

  /** Opens the store as {@link #open(Path, EngineOptions, FileSystem)} does, telling {@code splits} of each split's steps. */
  static LocalEngine open(Path dir, EngineOptions options, FileSystem fs, SplitListener splits) {
    HeapShares.check(options, Runtime.getRuntime().maxMemory());
    HeapShares.checkDirect(options, Runtime.getRuntime().maxMemory(), HeapShares.maxDirectMemory());
    DataDirectory.checkOpenable(fs, dir);
    LocalEngine db;
    try {
      db = new LocalEngine(fs, dir, options, splits);
    } catch (IOException e) {
      throw new StorageException("cannot open " + dir, e);
    }
    try {
      new EngineRecovery(db.fs, db.dir, db.layout, db.options, db.tables, db.snapshots, db.opener, db.walRetention,
          db.sequence, db.nextFileNumber, db.metrics).recover();
      return db;
    } catch (RuntimeException | IOException e) {
      db.abandon();
      if (e instanceof RuntimeException) {
        throw (RuntimeException) e;
      }
      throw new StorageException("cannot open " + dir, e);
    }
  }

  /**
   * A new engine instance id: random (64 bits from {@link SecureRandom}), never 0. Random rather
   * than a counter persisted in the catalog, because an open must not write (a failed open changes
   * nothing on disk), and a cache keyed by it needs ids unique among the instances it serves, which
   * 64 random bits give with a collision chance that is negligible.
   */
  private static long newInstanceId() {
    long id;
    do {
      id = INSTANCE_IDS.nextLong();
    } while (id == 0);
    return id;
  }

  // ================================================================== tables

  /** Creates a table of one region. */
  @Override
  public void createTable(TableDescriptor descriptor) {
    createTable(descriptor, List.of());
  }

  /**
   * Creates a table pre-split at {@code splitKeys} (sorted, distinct, non-empty; see {@link
   * SplitKeys}): {@code splitKeys.size() + 1} regions, each with its own engine-wide id.
   */
  @Override
  public void createTable(TableDescriptor descriptor, List<byte[]> splitKeys) {
    SplitKeys.check(splitKeys);
    synchronized (tables.ddlLock) {
      tables.checkOpen();
      Catalog catalog = tables.catalog();
      if (catalog.tables().containsKey(descriptor.name())) {
        throw new TableExistsException("table '" + descriptor.name() + "' already exists");
      }
      Catalog.Entry e = new Catalog.Entry(catalog.nextTableId(), descriptor, true,
          catalog.newRegions(splitKeys, sequence.get()));
      Path td = layout.tableDir(e);
      // The stores go to disk before the catalog lists them: a crash in between leaves an unlisted
      // directory, deleted at the next open, never a listed region without its stores.
      List<Region> created = new ArrayList<>();
      try {
        if (fs.exists(td)) {
          DataDirectory.deleteTableDirectory(fs, td); // an interrupted create's leftovers: its id was never listed
        }
        if (fs.exists(td)) {
          throw new StorageException("cannot create table '" + descriptor.name() + "': " + td
              + " holds files Bellows did not make; move them away");
        }
        for (Catalog.Span span : e.regions()) {
          created.add(opener.create(e, span));
        }
        tables.writeCatalog(catalog.with(e));
      } catch (IOException | RuntimeException ex) {
        RuntimeException failure = ex instanceof RuntimeException re ? re
            : new StorageException("cannot create table '" + descriptor.name() + "'", ex);
        for (Region r : created) {
          r.close(false);
        }
        try {
          DataDirectory.deleteTableDirectory(fs, td);
        } catch (IOException suppressed) {
          failure.addSuppressed(suppressed); // unlisted: deleted at the next open
        }
        throw failure;
      }
      tables.route(descriptor.name(), new TableRegions(e.id(), e.regions(), created));
    }
  }

  @Override
  public TableDescriptor describeTable(String name) {
    return tables.entry(name).descriptor();
  }

  @Override
  public List<String> listTables() {
    tables.checkOpen();
    List<String> names = new ArrayList<>(tables.catalog().tables().keySet());
    names.sort(Comparator.naturalOrder());
    return names;
  }

  @Override
  public boolean tableExists(String name) {
    tables.checkOpen();
    return tables.catalog().tables().containsKey(name);
  }

  /** Flushes and closes the table's regions; reads and writes fail until it is enabled again. */
  @Override
  public void disableTable(String name) {
    synchronized (tables.ddlLock) {
      Catalog.Entry e = tables.entry(name);
      if (!e.enabled()) {
        throw new TableNotEnabledException("table '" + name + "' is already disabled");
      }
      TableRegions t = tables.unroute(name);
      splitter.forget(name); // enabling opens the regions the catalog lists
      if (t != null) {
        for (Region r : t.regions()) {
          r.close(true);
          errors.forget(r);
        }
        walRetention.deleteObsolete();
      }
      tables.writeCatalog(tables.catalog().with(e.withEnabled(false)));
    }
  }

  @Override
  public void enableTable(String name) {
    synchronized (tables.ddlLock) {
      Catalog.Entry e = tables.entry(name);
      if (e.enabled()) {
        throw new StorageException("table '" + name + "' is already enabled");
      }
      Catalog.Entry on = e.withEnabled(true);
      tables.writeCatalog(tables.catalog().with(on));
      tables.route(name, opener.openTableRecovered(on));
    }
  }

  @Override
  public boolean isTableEnabled(String name) {
    return tables.entry(name).enabled();
  }

  /** Drops a disabled table and deletes its data (HBase requires disabling first; so does Bellows). */
  @Override
  public void dropTable(String name) {
    synchronized (tables.ddlLock) {
      Catalog.Entry e = tables.entry(name);
      if (e.enabled()) {
        throw new TableNotEnabledException("table '" + name + "' is enabled: disable it before dropping it");
      }
      tables.writeCatalog(tables.catalog().without(name));
      try {
        DataDirectory.deleteTableDirectory(fs, layout.tableDir(e));
      } catch (IOException ex) {
        LOG.warn("could not delete the files of dropped table {}; they are deleted at next open", name, ex);
      }
    }
  }

  /**
   * The regions of a table in key order, with their sizes if it is enabled. Region-level detail of
   * what {@link #storeMetrics} sums per family.
   */
  @Override
  public List<RegionInfo> regions(String name) {
    Catalog.Entry e = tables.entry(name);
    TableRegions t = tables.routing(name);
    List<RegionInfo> out = new ArrayList<>();
    for (int i = 0; i < e.regions().size(); i++) {
      Catalog.Span span = e.regions().get(i);
      long fileBytes = 0;
      int files = 0;
      long memory = 0;
      if (t != null && t.tableId() == e.id()) {
        for (Store s : t.regions().get(i).stores().values()) {
          fileBytes += s.metrics().getOrDefault("store.files.bytes", 0L).longValue();
          files += s.fileCount();
          memory += s.memStoreSize().dataBytes();
        }
      }
      out.add(new RegionInfo(span.id(), span.start().clone(), span.end().clone(), fileBytes, files, memory,
          span.identity(), span.seqIdBase()));
    }
    return out;
  }

  @Override
  public TableRef table(String name) {
    Catalog.Entry e = tables.entry(name);
    return new TableRef(name, e.id(), e.descriptor());
  }

  /**
   * Flushes every memory store of every region of the table to disk and waits for it. If a region's
   * flushes were failing, this one working clears that error (and resumes writes if it had stopped
   * them). If a region's flush fails, the others are still flushed and the first failure is thrown.
   */
  @Override
  public void flush(String table) {
    boolean flushed = false;
    RuntimeException first = null;
    for (Region r : tables.regionsOf(table).regions()) {
      try {
        flushed |= r.flush(true) != Region.NOTHING_FLUSHED;
        errors.succeeded(BackgroundError.Kind.FLUSH, r);
      } catch (RuntimeException e) {
        first = first == null ? e : first; // the other regions are still flushed
      }
    }
    if (flushed) {
      memoryReleased();
    }
    if (first != null) {
      throw first;
    }
  }

  /**
   * Runs a minor compaction of each store of each region of the table if its policy picks files;
   * waits. A damaged file met goes to the corruption policy ({@link CorruptionPolicy}) and is thrown
   * unless it was set aside (then the compaction runs again without it).
   */
  @Override
  public void compact(String table) {
    for (Region r : tables.regionsOf(table).regions()) {
      corruption.compact(r, false);
      errors.succeeded(BackgroundError.Kind.COMPACTION, r);
    }
  }

  @Override
  public VerifyReport verify() {
    tables.checkOpen();
    Wal w = walRetention.wal();
    return Verifier.run(fs, dir, tables.allRegions(), w == null ? List.of() : w.files());
  }

  /**
   * Compacts all files of each store of each region into one, dropping deleted, expired and surplus
   * data; waits. A split during the call closes a region before or after its compaction: its
   * daughters hold its files (linked, not rewritten), so they are compacted too, until every region
   * of the table was compacted since the call began.
   */
  @Override
  public void majorCompact(String table) {
    Set<Region> done = new HashSet<>();
    for (List<Region> pending = tables.regionsOf(table).regions(); !pending.isEmpty();
        pending = tables.regionsOf(table).regions().stream().filter(r -> !done.contains(r)).toList()) {
      for (Region r : pending) {
        corruption.compact(r, true);
        errors.succeeded(BackgroundError.Kind.COMPACTION, r);
        done.add(r);
      }
    }
  }

  // ================================================================== bulk load

  /**
   * Adopts sorted files built elsewhere into the table, atomically ({@link BulkLoader}): every file
   * is checked whole first (nothing is loaded if one is damaged, unsorted or of another family);
   * then, with the table's writes held while its regions flush, the cells are written into each
   * region's stores under one new sequence id, so they are newer than every earlier write and
   * older than every later one. The files are not changed. Returns the number of cells loaded.
   */
  @Override
  public long bulkLoad(String table, Map<String, List<Path>> files) {
    BulkLoader loader = new BulkLoader(fs, dir);
    long cells = loader.check(tables.entry(table).descriptor(), files);
    synchronized (tables.ddlLock) {
      tables.checkOpen();
      Catalog.Entry e = tables.entry(table);
      for (String f : files.keySet()) { // an alter may have deleted a family while the files were checked
        if (e.descriptor().family(f) == null) {
          throw new io.bellows.util.NoSuchColumnFamilyException("table '" + table + "' has no column family '" + f + "'");
        }
      }
      if (!e.enabled()) {
        throw new TableNotEnabledException("table '" + table + "' is disabled: enable it to bulk load into it");
      }
      splitter.checkRoutingCurrent(table);
      loader.load(e, tables.regionsOf(table), layout, files, sequence::incrementAndGet);
      LOG.info("bulk loaded {} cells from {} into table '{}'", cells, files, table);
      return cells;
    }
  }

  // ================================================================== alter and snapshots

  /**
   * Changes a table's settings and families to {@code next} (same name), online, as HBase's alter
   * does: stores of added families are made in every region first (their manifests start at the
   * engine's sequence, so no older log edit of a deleted family of that name comes back), then the
   * catalog is written (the commit point), then each open region is reopened under the new settings
   * as a split reopens its parent (its writes wait, it is flushed, the new region takes its place),
   * and last the stores of deleted families go. New settings take effect for every later write,
   * read, flush and compaction (data already in files keeps its block size and compression until
   * rewritten); a deleted family's data is gone.
   */
  @Override
  public void modifyTable(TableDescriptor next) {
    alterer.modifyTable(next);
  }

  /**
   * Takes snapshot {@code name} of the table: with {@code flush}, every region is flushed and the
   * snapshot holds every write acknowledged before the call; without, it holds what was flushed
   * before (HBase's SKIP_FLUSH). The table's writes, flushes and compactions wait while its regions
   * are blocked one after the other (each flushed), and all stay blocked until every file is linked:
   * the snapshot is the table at one point of its history. Reads go on. A disabled table's files
   * are linked as they are on disk.
   */
  @Override
  public void snapshot(String table, String name, boolean flush) {
    tableSnapshots.snapshot(table, name, flush);
  }

  @Override
  public List<SnapshotInfo> listSnapshots() {
    return tableSnapshots.list();
  }

  @Override
  public void deleteSnapshot(String name) {
    tableSnapshots.delete(name);
  }

  /**
   * Makes a new, enabled table {@code table} of snapshot {@code name}: the snapshot's settings,
   * families and region boundaries, new region ids, and its files hard-linked under new file
   * numbers. The snapshot is not changed. The catalog is the commit point, as for a create.
   */
  @Override
  public void cloneSnapshot(String name, String table) {
    tableSnapshots.cloneSnapshot(name, table);
  }

  /**
   * Restores a disabled table to snapshot {@code name} (the table it was taken of, by name): its
   * settings, families, region boundaries and files become the snapshot's, in new regions; the
   * table stays disabled. The catalog is the commit point; the old regions' directories are deleted
   * after it (or at the next open). If no table of that name exists, it is created as by {@link
   * #cloneSnapshot}.
   */
  @Override
  public void restoreSnapshot(String name) {
    tableSnapshots.restoreSnapshot(name);
  }

  // ================================================================== background errors

  @Override
  public Optional<BackgroundError> backgroundError() {
    tables.checkOpen();
    return errors.current();
  }

  /**
   * Retries a failed write-ahead log, then every failing flush and compaction at once, on this
   * thread; each that works clears its error, and writes resume once no error stops them. Throws if
   * writes are still stopped afterwards (a retry failed again), with the error that stops them;
   * a compaction that still fails is left to its background retries (it does not stop writes).
   */
  @Override
  public void resume() {
    tables.checkOpen();
    if (errors.walFailed()) {
      recoverWal();
    }
    for (Map.Entry<BackgroundError.Kind, Region> f : errors.failing()) {
      Region r = f.getValue();
      if (r.isClosedForWork()) {
        errors.forget(r);
        continue;
      }
      try {
        if (f.getKey() == BackgroundError.Kind.FLUSH) {
          r.flush(true);
        } else {
          r.compact(false);
        }
        errors.succeeded(f.getKey(), r);
      } catch (RegionClosedException e) {
        errors.forget(r);
      } catch (DamagedFileException e) {
        corruption.damagedFileFound(r, e); // never a retry: the corruption policy
      } catch (RuntimeException e) {
        errors.failed(f.getKey(), r, e);
      }
    }
    errors.checkWritesAllowed();
  }

  /**
   * Retries the failed write-ahead log ({@link Wal#recover}: the failed file fenced, its unforced
   * records rewritten to a new one); once it works, the writes whose sync had failed are durable and
   * become visible, and writes are accepted again. Throws if the log still fails.
   */
  private void recoverWal() {
    try {
      walRetention.wal().recover();
    } catch (RuntimeException e) {
      throw new StorageException("the write-ahead log still fails, writes stay stopped: " + e.getMessage()
          + "; fix the cause (space, file descriptors, the disk) and call resume() again, or close and reopen"
          + " the engine", e);
    }
    tables.allRegions().forEach(Region::logRecovered);
    errors.walRecovered();
  }

  private void wakeBlockedWriters() {
    // On another thread: the caller may hold locks a blocked writer waits for.
    background.later(() -> tables.allRegions().forEach(Region::wakeBlockedWriters));
  }

  // ================================================================== split

  /**
   * Splits the region of the table that holds the most data (sorted-file bytes) at its middle key:
   * the first row of the middle data block of the largest file of its largest store. A region
   * without such a key (fewer than two data blocks in that file, or the key at the region's start or
   * outside its range, as in a daughter whose linked files no compaction has rewritten yet) is
   * passed over for the next largest; if no region has one, throws {@link
   * IllegalArgumentException}. Flush first to count data still in memory.
   */
  @Override
  public void split(String table) {
    splitter.split(table);
  }

  /**
   * Splits the region holding {@code splitKey} into {@code [start, splitKey)} and {@code [splitKey,
   * end)}; the key must lie strictly inside the region's range (not at its start). Writes to the
   * region wait during the split (then go to the daughters); reads go on. The daughters start with
   * hard links to the region's sorted files and read only their half; their compactions rewrite it.
   * The catalog is the one commit point (docs/design/split.md).
   */
  @Override
  public void split(String table, byte[] splitKey) {
    splitter.split(table, splitKey);
  }

  // ================================================================== data

  /**
   * Each row goes to the region whose range holds it. One row: {@link Region#mutate}. Several in
   * one region: {@link Region#mutateBatch}, which validates every row before applying any and
   * applies them as mini-batches (one WAL record, sync and MVCC round each). Several spanning
   * regions: every row is validated first, then each region's rows, in batch order, go through its
   * {@code mutateBatch}, region after region in key order. Each row is atomic; the batch is not
   * (as within one region).
   */
  @Override
  public void mutate(TableRef table, List<RowMutation> rows) {
    router.mutate(table, rows);
  }

  @Override
  public Outcome mutateRow(TableRef table, RowOperation op) {
    return router.mutateRow(table, op);
  }

  /**
   * Reads the regions whose ranges meet the query's, in key order, one after the other: the next
   * region's scanner is opened when one ends, at that region's read point then. Within a region a
   * scan is one snapshot; across regions it is not (as in HBase).
   */
  @Override
  public RowScanner scan(TableRef table, ScanQuery query) {
    return router.scan(table, query);
  }

  /**
   * Reads rows one by one (as the interface's default does) and counts what gets return, the
   * denominator of read amplification: {@code read.gets}, {@code read.returned.bytes} and
   * {@code read.returned.pages} (4 KiB pages per row, rounded up, as the SAC 2024 paper counts).
   */
  @Override
  public List<List<Cell>> getAll(TableRef table, List<ScanQuery> singleRowQueries) {
    return router.countGets(Engine.super.getAll(table, singleRowQueries));
  }

  // ================================================================== metrics

  /** Engine-wide metrics by name (WAL, flushes, compactions, memory, blocked time, GC). */
  @Override
  public Map<String, Number> metrics() {
    tables.checkOpen();
    return engineMetrics.all();
  }

  /**
   * Per-store metrics of a table: family name -&gt; metric name -&gt; value, each summed over the
   * table's regions (per-region sizes: {@link #regions}).
   */
  @Override
  public Map<String, Map<String, Number>> storeMetrics(String table) {
    return engineMetrics.stores(table);
  }

  @Override
  public List<StoreSegments> memStoreSegments(String table) {
    return engineMetrics.memStoreSegments(table);
  }

  @Override
  public List<WalFileInfo> walFiles() {
    return engineMetrics.walFiles();
  }

  public Path directory() {
    return dir;
  }

  /**
   * The id of this engine instance: random, different for every open (also reported as the
   * metric {@code engine.instance.id}). With a sorted-file number, which is unique within the data
   * directory, it names one file's bytes uniquely across stores, tables and reopenings: the key
   * prefix of a block cache shared by stores (or by engines).
   */
  public long instanceId() {
    return instanceId;
  }

  @Override
  public EngineOptions options() {
    return options;
  }

  // ================================================================== internals

  /** Refuses writes while a HARD background error stops them (the regions' check, which counts refusals). */
  private void checkWritesAllowed() {
    services.checkWritesAllowed();
  }

  /** A flush or an in-memory compaction released memory-store data (its result said so). */
  private void memoryReleased() {
    walRetention.deleteObsolete();
    backPressure.memoryReleased();
  }

  /** Flushes and closes every table, stops background work, closes the WAL, unlocks the directory. */
  @Override
  public void close() {
    synchronized (tables.ddlLock) {
      if (!tables.close()) {
        return;
      }
    }
    RuntimeException first = null;
    boolean walFailed = errors.walFailed();
    for (Region r : tables.allRegions()) {
      try {
        r.close(!walFailed);
      } catch (RuntimeException e) {
        first = first == null ? e : first;
      }
    }
    background.shutdown();
    blockCache.close();
    try {
      walRetention.close(!walFailed && first == null);
    } catch (RuntimeException e) {
      first = first == null ? e : first;
    }
    lock.release();
    if (first != null) {
      throw first;
    }
  }

  /** Cleans up after a failed open. */
  private void abandon() {
    tables.close();
    for (Region r : tables.allRegions()) {
      try {
        r.close(false);
      } catch (RuntimeException ignored) {
        // already failing
      }
    }
    background.shutdownNow();
    blockCache.close();
    if (walRetention.wal() != null) {
      try {
        walRetention.wal().close();
      } catch (RuntimeException ignored) {
        // already failing
      }
    }
    lock.release();
  }
}
