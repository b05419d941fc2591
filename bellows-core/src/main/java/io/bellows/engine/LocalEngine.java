package io.bellows.engine;

import io.bellows.atomic.Outcome;
import io.bellows.cache.BlockCache;
import io.bellows.cell.Cell;
import io.bellows.config.Durability;
import io.bellows.region.RegionClosedException;
import io.bellows.region.RegionScanner;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.metrics.EventMetrics;
import io.bellows.util.BackgroundError;
import io.bellows.util.Bytes;
import io.bellows.util.DamagedFileException;
import io.bellows.util.EngineClosedException;
import io.bellows.util.EventListener;
import io.bellows.util.WritesStoppedException;
import io.bellows.util.TableExistsException;
import io.bellows.util.TableNotEnabledException;
import io.bellows.util.TableNotFoundException;
import java.util.function.Function;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.fs.AtomicFiles;
import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.manifest.StoreManifest;
import io.bellows.memstore.InMemoryWork;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.metrics.JvmMetrics;
import io.bellows.metrics.MetricSet;
import io.bellows.region.OptionsResolver;
import io.bellows.region.Region;
import io.bellows.region.RegionLog;
import io.bellows.region.RegionServices;
import io.bellows.region.SequenceIds;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.store.FileNumberAllocator;
import io.bellows.store.Store;
import io.bellows.util.StorageException;
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
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
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
  private final Object ddlLock = new Object();
  /** The open regions of every enabled table, by table name. */
  private final Map<String, TableRegions> openTables = new ConcurrentHashMap<>();
  private final BackgroundWork background;
  private final BackPressure backPressure;
  private final int walMaxFiles;
  private final ChunkAllocator chunks;
  /** Blocks of sorted files, shared by every store; keys are (file number, offset). */
  private final BlockCache blockCache;
  private final Services services = new Services();
  private final Snapshots snapshots;
  private volatile Catalog catalog;
  private volatile Wal wal;
  private volatile boolean closed;
  private final Listeners events;
  private final BackgroundErrors errors;
  private final LongAdder writesRefused = metrics.counter("writes.refused");
  private final LongAdder corruptFiles = metrics.counter("corruption.files.found");
  private final LongAdder quarantinedFiles = metrics.counter("corruption.files.quarantined");
  /** Damaged-file findings already handled (a damaged store throws the same one again). */
  private final Set<DamagedFileException> corruptionHandled = ConcurrentHashMap.newKeySet();
  /** WAL rolls already checked against bellows.wal.max.files. */
  private final AtomicLong rollsChecked = new AtomicLong();

  private LocalEngine(FileSystem fs, Path dir, EngineOptions options) throws IOException {
    this.fs = fs;
    this.dir = dir.toAbsolutePath();
    this.layout = new DataDirectory(fs, this.dir);
    this.snapshots = new Snapshots(fs, this.dir);
    this.options = options;
    AtomicFiles.createDirectories(fs, this.dir); // durably: a new directory's name must survive a power loss
    this.lock = DirectoryLock.acquire(fs, this.dir);
    List<EventListener> listeners = new ArrayList<>();
    listeners.add(new EventMetrics(metrics)); // first: listeners see the metrics of their event
    listeners.addAll(options.eventListeners());
    this.events = new Listeners(listeners);
    this.errors = new BackgroundErrors(events, metrics, options.clock(), options.get(Knobs.FLUSH_FAILURES_STOP_WRITES),
        this::wakeBlockedWriters, "the engine of " + this.dir);
    this.background = new BackgroundWork(options, errors, this::memoryReleased);
    this.background.afterWork(this::maybeSplit);
    this.background.onDamagedFile(this::damagedFileFound);
    this.walMaxFiles = options.get(Knobs.WAL_MAX_FILES);
    this.backPressure = new BackPressure(options, metrics, events, this::allRegions, background::requestFlushAll,
        () -> services.checkWritesAllowed());
    metrics.gauge("background.error.state", errors::stateCode);
    metrics.gauge("background.work.failing", errors::failingWork);
    metrics.gauge("corruption.stores.damaged", this::damagedStores);
    metrics.gauge("event.listener.failures", events::failures);
    this.chunks = EngineChunks.create(options);
    this.blockCache = OptionsResolver.blockCache(options, Runtime.getRuntime().maxMemory());
    JvmMetrics.register(metrics);
    // Counted later, reported from open on (at 0), so exporters and dashboards see them at once.
    metrics.counter("regions.split");
    metrics.counter("flush.requested.by.wal.size");
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
    HeapShares.check(options, Runtime.getRuntime().maxMemory());
    DataDirectory.checkOpenable(fs, dir);
    LocalEngine db;
    try {
      db = new LocalEngine(fs, dir, options);
    } catch (IOException e) {
      throw new StorageException("cannot open " + dir, e);
    }
    try {
      db.recover();
      return db;
    } catch (RuntimeException | IOException e) {
      db.abandon();
      if (e instanceof RuntimeException) {
        throw (RuntimeException) e;
      }
      throw new StorageException("cannot open " + dir, e);
    }
  }

  private void recover() throws IOException {
    OptionsFile.check(fs, dir, options); // first: a newer format is refused before anything is read
    if (Catalog.exists(fs, dir)) {
      catalog = Catalog.load(fs, dir);
    } else if (DataDirectory.isNew(fs, dir)) {
      // The catalog is the directory's identity: written first, before any other file.
      Catalog.empty().write(fs, dir);
      catalog = Catalog.empty();
    } else {
      DataDirectory.checkOpenable(fs, dir); // something appeared since the check before the lock: refuse as there
    }
    AtomicFiles.createDirectories(fs, layout.tables());
    catalog = layout.rollBackSplitIntent(catalog);
    // Before anything is deleted or opened: every number on disk is counted, leftovers included.
    nextFileNumber.set(FileNumberScan.firstFree(fs, layout.tables(), layout.listedStoreDirectories(catalog)));
    layout.deleteUnlistedTableDirectories(catalog);
    for (Catalog.Entry e : catalog.tables().values()) {
      layout.deleteUnlistedRegionDirectories(e);
    }
    snapshots.deleteIncomplete();
    new BulkLoader(fs, dir).rollForward(); // before any store opens: it would delete the files as unlisted
    Map<Integer, Region> byId = new TreeMap<>();
    for (Catalog.Entry e : catalog.tables().values()) {
      if (e.enabled()) {
        TableRegions t = openRegions(e);
        openTables.put(e.descriptor().name(), t);
        for (Region r : t.regions()) {
          byId.put(r.id(), r);
        }
      }
    }
    long highest = highestFlushedSeqId();
    wal = Wal.open(fs, layout.wal(), OptionsResolver.wal(options));
    AtomicLong maxReplayed = new AtomicLong(highest);
    AtomicLong replayed = new AtomicLong();
    AtomicLong skipped = new AtomicLong();
    wal.replay(edit -> {
      maxReplayed.accumulateAndGet(edit.seqId(), Math::max);
      Region r = byId.get(edit.regionId());
      if (r != null && r.replay(edit)) {
        replayed.incrementAndGet();
      } else {
        skipped.incrementAndGet(); // already flushed, or of a dropped or disabled table
      }
    });
    sequence.set(maxReplayed.get());
    for (Region r : allRegions()) {
      r.recovered(sequence.get());
    }
    if (replayed.get() > 0) {
      LOG.info("replayed {} WAL edits into {} ({} skipped: already in sorted files or of no open table)",
          replayed.get(), dir, skipped.get());
    }
    metrics.counter("wal.edits.replayed").add(replayed.get());
    metrics.counter("wal.edits.skipped").add(skipped.get());
    OptionsFile.record(fs, dir, options);
  }

  /** Opens every region of a table (each store must be on disk), closing them again if one fails. */
  private TableRegions openRegions(Catalog.Entry e) {
    List<Region> opened = new ArrayList<>();
    try {
      for (Catalog.Span span : e.regions()) {
        opened.add(new Region(span.id(), e.descriptor(), layout.regionDir(e, span), services, span.start(), span.end()));
      }
    } catch (RuntimeException ex) {
      for (Region r : opened) {
        try {
          r.close(false);
        } catch (RuntimeException suppressed) {
          ex.addSuppressed(suppressed);
        }
      }
      throw ex;
    }
    return new TableRegions(e.id(), e.regions(), opened);
  }

  /** Every open region of every enabled table. */
  private List<Region> allRegions() {
    List<Region> out = new ArrayList<>();
    for (TableRegions t : openTables.values()) {
      out.addAll(t.regions());
    }
    return out;
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

  /**
   * The highest sequence id in any sorted file, of enabled and disabled tables alike. New sequence
   * ids must lie above it even when the WAL is empty: an edit numbered at or below a store's
   * flushedSeqId would be skipped by the next replay, losing it.
   */
  private long highestFlushedSeqId() throws IOException {
    long highest = 0;
    for (Region r : allRegions()) {
      for (Store s : r.stores().values()) {
        highest = Math.max(highest, s.flushedSeqId());
      }
    }
    for (Catalog.Entry e : catalog.tables().values()) {
      if (!e.enabled()) {
        for (Catalog.Span span : e.regions()) {
          for (ColumnFamilyDescriptor f : e.descriptor().families()) {
            highest = Math.max(highest, StoreManifest.load(fs, layout.regionDir(e, span).resolve(f.name())).flushedSeqId());
          }
        }
      }
    }
    return highest;
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
    synchronized (ddlLock) {
      checkOpen();
      if (catalog.tables().containsKey(descriptor.name())) {
        throw new TableExistsException("table '" + descriptor.name() + "' already exists");
      }
      Catalog.Entry e = new Catalog.Entry(catalog.nextTableId(), descriptor, true, catalog.newRegions(splitKeys));
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
          created.add(Region.create(span.id(), descriptor, layout.regionDir(e, span), services, span.start(), span.end()));
        }
        writeCatalog(catalog.with(e));
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
      openTables.put(descriptor.name(), new TableRegions(e.id(), e.regions(), created));
    }
  }

  @Override
  public TableDescriptor describeTable(String name) {
    return entry(name).descriptor();
  }

  @Override
  public List<String> listTables() {
    checkOpen();
    List<String> names = new ArrayList<>(catalog.tables().keySet());
    names.sort(Comparator.naturalOrder());
    return names;
  }

  @Override
  public boolean tableExists(String name) {
    checkOpen();
    return catalog.tables().containsKey(name);
  }

  /** Flushes and closes the table's regions; reads and writes fail until it is enabled again. */
  @Override
  public void disableTable(String name) {
    synchronized (ddlLock) {
      Catalog.Entry e = entry(name);
      if (!e.enabled()) {
        throw new TableNotEnabledException("table '" + name + "' is already disabled");
      }
      TableRegions t = openTables.remove(name);
      splitUnfinished.remove(name); // enabling opens the regions the catalog lists
      if (t != null) {
        for (Region r : t.regions()) {
          r.close(true);
          errors.forget(r);
        }
        deleteObsoleteWalFiles();
      }
      writeCatalog(catalog.with(e.withEnabled(false)));
    }
  }

  @Override
  public void enableTable(String name) {
    synchronized (ddlLock) {
      Catalog.Entry e = entry(name);
      if (e.enabled()) {
        throw new StorageException("table '" + name + "' is already enabled");
      }
      Catalog.Entry on = e.withEnabled(true);
      writeCatalog(catalog.with(on));
      TableRegions t = openRegions(on);
      for (Region r : t.regions()) {
        r.recovered(sequence.get());
      }
      openTables.put(name, t);
    }
  }

  @Override
  public boolean isTableEnabled(String name) {
    return entry(name).enabled();
  }

  /** Drops a disabled table and deletes its data (HBase requires disabling first; so does Bellows). */
  @Override
  public void dropTable(String name) {
    synchronized (ddlLock) {
      Catalog.Entry e = entry(name);
      if (e.enabled()) {
        throw new TableNotEnabledException("table '" + name + "' is enabled: disable it before dropping it");
      }
      writeCatalog(catalog.without(name));
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
    Catalog.Entry e = entry(name);
    TableRegions t = openTables.get(name);
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
      out.add(new RegionInfo(span.id(), span.start().clone(), span.end().clone(), fileBytes, files, memory));
    }
    return out;
  }

  @Override
  public TableRef table(String name) {
    Catalog.Entry e = entry(name);
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
    for (Region r : regionsOf(table).regions()) {
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
   * waits. A damaged file met goes to the corruption policy ({@link #damagedFileFound}) and is thrown
   * unless it was set aside (then the compaction runs again without it).
   */
  @Override
  public void compact(String table) {
    for (Region r : regionsOf(table).regions()) {
      compactHandlingDamage(r, false);
      errors.succeeded(BackgroundError.Kind.COMPACTION, r);
    }
  }

  private void compactHandlingDamage(Region r, boolean major) {
    while (true) {
      try {
        r.compact(major);
        return;
      } catch (DamagedFileException e) {
        if (!damagedFileFound(r, e)) {
          throw e;
        }
      }
    }
  }

  /**
   * The corruption policy (docs/ARCHITECTURE.md, "Background errors"), when a compaction of the
   * region met a damaged sorted file; the store already refuses writes and compactions. Counts it
   * and tells the listeners; then, with {@code bellows.corruption.quarantine}, sets the file aside
   * online as {@code repair --fix} would (the store goes on without its cells), else records a HARD
   * CORRUPTION background error naming the file. Never a retry. Returns whether the file was set
   * aside. Each finding is handled once.
   */
  private boolean damagedFileFound(Region region, DamagedFileException e) {
    if (!corruptionHandled.add(e)) {
      return false;
    }
    corruptFiles.increment();
    Store store = region.stores().get(e.family());
    String aside = null;
    if (options.get(Knobs.CORRUPTION_QUARANTINE) && store != null) {
      Path target = Repair.setAsideTarget(fs, dir, e.file());
      try {
        if (store.quarantine(e, target)) {
          aside = dir.relativize(target).toString();
          quarantinedFiles.increment();
        }
      } catch (RuntimeException failed) {
        LOG.error("cannot set damaged {} aside; writes to its store stay stopped", e.file(), failed);
      }
    }
    if (aside == null && store != null && store.damageError() != null) {
      errors.corrupted(region, store.damageError(), e); // recorded before the event: listeners see it
    }
    events.corruptionFound(new EventListener.CorruptionInfo(e.table(), e.family(), dir.relativize(e.file()).toString(),
        e.offset(), e.getMessage(), aside));
    if (aside == null) {
      return false;
    }
    LOG.error("{}: a compaction of table '{}' met a damaged file; set it aside as {} (its cells are lost; older"
        + " versions they hid may show again); the store goes on: {}", dir, e.table(), aside, e.getMessage());
    background.requestCompaction(region);
    return true;
  }

  /** Stores refusing writes because a compaction met a damaged file (the metric corruption.stores.damaged). */
  private int damagedStores() {
    int n = 0;
    for (Region r : allRegions()) {
      for (Store s : r.stores().values()) {
        if (s.damage() != null) {
          n++;
        }
      }
    }
    return n;
  }

  @Override
  public VerifyReport verify() {
    checkOpen();
    Wal w = wal;
    return Verifier.run(fs, dir, allRegions(), w == null ? List.of() : w.files());
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
    for (List<Region> pending = regionsOf(table).regions(); !pending.isEmpty();
        pending = regionsOf(table).regions().stream().filter(r -> !done.contains(r)).toList()) {
      for (Region r : pending) {
        compactHandlingDamage(r, true);
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
    long cells = loader.check(entry(table).descriptor(), files);
    synchronized (ddlLock) {
      checkOpen();
      Catalog.Entry e = entry(table);
      for (String f : files.keySet()) { // an alter may have deleted a family while the files were checked
        if (e.descriptor().family(f) == null) {
          throw new io.bellows.util.NoSuchColumnFamilyException("table '" + table + "' has no column family '" + f + "'");
        }
      }
      if (!e.enabled()) {
        throw new TableNotEnabledException("table '" + table + "' is disabled: enable it to bulk load into it");
      }
      checkRoutingCurrent(table);
      loader.load(e, regionsOf(table), layout, files, sequence::incrementAndGet);
      LOG.info("bulk loaded {} cells from {} into table '{}'", cells, files, table);
      return cells;
    }
  }

  // ================================================================== alter

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
    synchronized (ddlLock) {
      checkOpen();
      Catalog.Entry e = entry(next.name());
      checkRoutingCurrent(next.name());
      Set<String> before = familyNames(e.descriptor());
      Set<String> after = familyNames(next);
      Catalog.Entry changed = new Catalog.Entry(e.id(), next, e.enabled(), e.regions());
      try {
        for (Catalog.Span span : e.regions()) {
          Path region = layout.regionDir(e, span);
          for (String f : after) {
            if (!before.contains(f)) {
              Path store = region.resolve(f);
              TableDirectories.deleteStore(fs, store); // a crashed alter's leftovers: never listed
              AtomicFiles.createDirectories(fs, store);
              new io.bellows.manifest.StoreManifest(sequence.get(), fileNumbers.next(), List.of()).write(fs, store);
            }
          }
          fs.syncDirectory(region);
        }
      } catch (IOException ex) {
        throw new StorageException("cannot alter table '" + next.name() + "': " + ex.getMessage(), ex);
      }
      writeCatalog(catalog.with(changed)); // the commit point
      TableRegions t = openTables.get(next.name());
      if (t != null) {
        for (int i = 0; i < t.regions().size(); i++) {
          reopen(next.name(), changed, i);
        }
      }
      for (Catalog.Span span : e.regions()) {
        for (String f : before) {
          if (!after.contains(f)) {
            try {
              TableDirectories.deleteStore(fs, layout.regionDir(e, span).resolve(f));
            } catch (IOException ex) {
              LOG.warn("could not delete the store of deleted family '{}' of table '{}'; it is deleted at the next"
                  + " open", f, next.name(), ex);
            }
          }
        }
      }
      LOG.info("altered table '{}': {}", next.name(), next);
    }
  }

  /** Reopens region {@code i} of an open table under {@code e}'s settings, as a split replaces its parent. */
  private void reopen(String table, Catalog.Entry e, int i) {
    TableRegions t = openTables.get(table);
    Region old = t.regions().get(i);
    Catalog.Span span = t.spans().get(i);
    old.blockForSplit(); // writes wait, every store flushed, compactions kept out
    try {
      Region fresh = new Region(span.id(), e.descriptor(), layout.regionDir(e, span), services, span.start(), span.end());
      fresh.recovered(sequence.get());
      List<Region> regions = new ArrayList<>(t.regions());
      regions.set(i, fresh);
      openTables.put(table, new TableRegions(t.tableId(), t.spans(), regions));
      old.close(false); // waiting writers find it closed and out of the routing: they go to the new one
      errors.forget(old);
    } finally {
      old.unblockAfterSplit();
    }
  }

  private static Set<String> familyNames(TableDescriptor d) {
    Set<String> out = new java.util.LinkedHashSet<>();
    for (io.bellows.schema.ColumnFamilyDescriptor f : d.families()) {
      out.add(f.name());
    }
    return out;
  }

  // ================================================================== snapshots

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
    Snapshots.checkName(name);
    synchronized (ddlLock) {
      checkOpen();
      Catalog.Entry e = entry(table);
      if (snapshots.exists(name)) {
        throw new IllegalArgumentException("snapshot '" + name + "' already exists");
      }
      long now = options.clock().currentTimeMillis();
      checkRoutingCurrent(table);
      if (!e.enabled()) {
        snapshots.write(name, table, e, layout, null, now);
        return;
      }
      List<Region> regions = regionsOf(table).regions();
      List<Region> blocked = new ArrayList<>();
      try {
        for (Region r : regions) {
          r.blockForSnapshot(flush);
          blocked.add(r);
        }
        snapshots.write(name, table, e, layout, regions, now);
      } finally {
        for (int i = blocked.size() - 1; i >= 0; i--) {
          blocked.get(i).unblockAfterSplit();
        }
      }
      if (flush) {
        deleteObsoleteWalFiles();
      }
    }
  }

  @Override
  public List<SnapshotInfo> listSnapshots() {
    checkOpen();
    synchronized (ddlLock) {
      return snapshots.list();
    }
  }

  @Override
  public void deleteSnapshot(String name) {
    synchronized (ddlLock) {
      checkOpen();
      snapshots.delete(name);
    }
  }

  /**
   * Makes a new, enabled table {@code table} of snapshot {@code name}: the snapshot's settings,
   * families and region boundaries, new region ids, and its files hard-linked under new file
   * numbers. The snapshot is not changed. The catalog is the commit point, as for a create.
   */
  @Override
  public void cloneSnapshot(String name, String table) {
    synchronized (ddlLock) {
      checkOpen();
      Snapshots.Loaded s = snapshots.load(name);
      if (catalog.tables().containsKey(table)) {
        throw new TableExistsException("table '" + table + "' already exists");
      }
      TableDescriptor d = s.table().descriptor().toBuilder(table).build();
      Catalog.Entry e = new Catalog.Entry(catalog.nextTableId(), d, true, catalog.newRegions(splitKeysOf(s.table())));
      Path td = layout.tableDir(e);
      try {
        if (fs.exists(td)) {
          DataDirectory.deleteTableDirectory(fs, td); // an interrupted create's leftovers: its id was never listed
        }
        AtomicFiles.createDirectories(fs, td);
        linkSnapshotRegions(s, e);
        writeCatalog(catalog.with(e));
      } catch (IOException | RuntimeException ex) {
        RuntimeException failure = ex instanceof RuntimeException re ? re
            : new StorageException("cannot clone snapshot '" + name + "' into table '" + table + "'", ex);
        try {
          DataDirectory.deleteTableDirectory(fs, td);
        } catch (IOException suppressed) {
          failure.addSuppressed(suppressed); // unlisted: deleted at the next open
        }
        throw failure;
      }
      TableRegions t = openRegions(e);
      for (Region r : t.regions()) {
        r.recovered(sequence.get());
      }
      openTables.put(table, t);
    }
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
    String table;
    synchronized (ddlLock) {
      checkOpen();
      Snapshots.Loaded s = snapshots.load(name);
      table = s.info().table();
      Catalog.Entry old = catalog.tables().get(table);
      if (old == null) {
        table = null;
      } else {
        if (old.enabled()) {
          throw new TableNotEnabledException("table '" + table + "' is enabled: disable it before restoring a"
              + " snapshot into it");
        }
        TableDescriptor d = s.table().descriptor().toBuilder(table).build();
        Catalog.Entry e = new Catalog.Entry(old.id(), d, false, catalog.newRegions(splitKeysOf(s.table())));
        try {
          linkSnapshotRegions(s, e);
        } catch (RuntimeException ex) {
          for (Catalog.Span span : e.regions()) {
            try {
              TableDirectories.deleteRegion(fs, layout.regionDir(e, span));
            } catch (IOException suppressed) {
              ex.addSuppressed(suppressed); // unlisted: deleted at the next open
            }
          }
          throw ex;
        }
        writeCatalog(catalog.with(e)); // the commit point: the old regions are unlisted now
        for (Catalog.Span span : old.regions()) {
          try {
            TableDirectories.deleteRegion(fs, layout.regionDir(old, span));
          } catch (IOException ex) {
            LOG.warn("could not delete region {} of table '{}' after a restore; it is deleted at the next open",
                span.id(), table, ex);
          }
        }
        return;
      }
    }
    cloneSnapshot(name, snapshotsTable(name));
  }

  private String snapshotsTable(String name) {
    return snapshots.load(name).info().table();
  }

  /** The split keys that give a table the region boundaries of {@code e}. */
  private static List<byte[]> splitKeysOf(Catalog.Entry e) {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 1; i < e.regions().size(); i++) {
      keys.add(e.regions().get(i).start());
    }
    return keys;
  }

  /** Links each region of the snapshot into the matching region of {@code e}; raises the sequence above its edits. */
  private void linkSnapshotRegions(Snapshots.Loaded s, Catalog.Entry e) {
    long highest = 0;
    for (int i = 0; i < e.regions().size(); i++) {
      highest = Math.max(highest, snapshots.linkRegion(s, s.table().regions().get(i),
          layout.regionDir(e, e.regions().get(i)), fileNumbers));
    }
    long h = highest;
    sequence.accumulateAndGet(h, Math::max); // a snapshot from another engine may hold later sequence ids
  }

  // ================================================================== background errors

  @Override
  public Optional<BackgroundError> backgroundError() {
    checkOpen();
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
    checkOpen();
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
        damagedFileFound(r, e); // never a retry: the corruption policy
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
      wal.recover();
    } catch (RuntimeException e) {
      throw new StorageException("the write-ahead log still fails, writes stay stopped: " + e.getMessage()
          + "; fix the cause (space, file descriptors, the disk) and call resume() again, or close and reopen"
          + " the engine", e);
    }
    allRegions().forEach(Region::logRecovered);
    errors.walRecovered();
  }

  private void wakeBlockedWriters() {
    // On another thread: the caller may hold locks a blocked writer waits for.
    background.later(() -> allRegions().forEach(Region::wakeBlockedWriters));
  }

  // ================================================================== split

  /**
   * Steps of a split, in order, named for {@link #splitHook} (tests stop or copy the data directory
   * there, as a crash would leave it).
   */
  static final List<String> SPLIT_STEPS = List.of("flushed", "intent-written", "daughter-a-linked",
      "daughters-linked", "committed", "parent-closed", "parent-deleted");

  /** Called at each of {@link #SPLIT_STEPS}; tests only. Throwing an Error there leaves the split as a crash would. */
  static volatile java.util.function.Consumer<String> splitHook = step -> { };

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
    synchronized (ddlLock) {
      TableRegions t = regionsOf(table);
      byte[] key = null;
      long most = -1;
      for (Region r : t.regions()) {
        long bytes = 0;
        for (Store st : r.stores().values()) {
          bytes += st.metrics().getOrDefault("store.files.bytes", 0L).longValue();
        }
        if (bytes > most) {
          byte[] mid = r.midKey();
          if (mid != null) {
            most = bytes;
            key = mid;
          }
        }
      }
      if (key == null) {
        throw new IllegalArgumentException("table '" + table + "' has no split point: no region holds enough"
            + " data in its range (two data blocks in its largest file); give a split key");
      }
      split(table, key);
    }
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
    if (splitKey == null || splitKey.length == 0) {
      throw new IllegalArgumentException("a split key must not be empty");
    }
    SplitKeys.check(List.of(splitKey));
    synchronized (ddlLock) {
      TableRegions t = regionsOf(table);
      Catalog.Entry e = entry(table);
      int index = t.indexOf(splitKey);
      Catalog.Span span = t.spans().get(index);
      if (java.util.Arrays.equals(span.start(), splitKey)) {
        throw new IllegalArgumentException("split key '" + Bytes.toStringBinary(splitKey) + "' is the start of"
            + " region " + span.id() + " already: a split key must lie strictly inside a region");
      }
      Region parent = t.regions().get(index);
      splitRegion(table, e, t, index, parent, splitKey.clone());
    }
  }

  private void splitRegion(String table, Catalog.Entry e, TableRegions t, int index, Region parent, byte[] key) {
    checkRoutingCurrent(table);
    Catalog.Span span = t.spans().get(index);
    parent.blockForSplit(); // writes wait, every store flushed, compactions kept out
    Catalog.SplitIntent intent = null;
    boolean committed = false;
    List<Region> daughters = new ArrayList<>();
    try {
      splitHook.accept("flushed");
      writeCatalog(catalog.withIntent(e.id(), span.id(), key));
      intent = catalog.intent();
      splitHook.accept("intent-written");
      Catalog.Span a = new Catalog.Span(intent.daughterA(), span.start(), key);
      Catalog.Span b = new Catalog.Span(intent.daughterB(), key, span.end());
      parent.linkStoresInto(layout.regionDir(e, a));
      splitHook.accept("daughter-a-linked");
      parent.linkStoresInto(layout.regionDir(e, b));
      splitHook.accept("daughters-linked");
      Catalog next = catalog.splitCommitted();
      writeCatalog(next); // the commit point
      committed = true;
      splitHook.accept("committed");
      for (Catalog.Span d : List.of(a, b)) {
        Region r = new Region(d.id(), e.descriptor(), layout.regionDir(e, d), services, d.start(), d.end());
        r.recovered(sequence.get());
        daughters.add(r);
      }
      List<Catalog.Span> spans = new ArrayList<>(t.spans());
      List<Region> regions = new ArrayList<>(t.regions());
      spans.set(index, b);
      spans.add(index, a);
      regions.set(index, daughters.get(1));
      regions.add(index, daughters.get(0));
      openTables.put(table, new TableRegions(t.tableId(), spans, regions));
      parent.close(false); // under the write block: no write is inside it; waiting ones re-route
      errors.forget(parent);
      splitHook.accept("parent-closed");
    } catch (RuntimeException ex) {
      if (!committed) {
        rollBack(e, intent, ex);
      } else {
        // Committed, but a daughter did not open. The parent was flushed under the block, so the
        // daughters' files hold all of its data; it is closed and stays in the routing, so reads and
        // writes of its rows fail (RegionClosedException) until a reopen opens the daughters. The
        // table's other regions go on serving, and are flushed and closed with the engine: were
        // they dropped from the routing, nothing would flush them, and the log files holding their
        // edits would be deleted as if they were.
        for (Region r : daughters) {
          r.close(false);
        }
        parent.close(false);
        splitUnfinished.add(table);
        ex.addSuppressed(new StorageException("the split of region " + span.id() + " of table '" + table
            + "' committed but its daughters could not be opened; its rows are unavailable until the engine is"
            + " reopened"));
        LOG.error("the split of region {} of table '{}' committed but its daughters could not be opened; its rows"
            + " are unavailable until the engine is reopened", span.id(), table, ex);
      }
      throw ex;
    } finally {
      parent.unblockAfterSplit();
    }
    try {
      List<Path> left = TableDirectories.deleteRegion(fs, parent.directory());
      if (!left.isEmpty()) {
        LOG.warn("left {} in {}: not made by Bellows", left, parent.directory());
      }
    } catch (IOException ex) {
      LOG.warn("could not delete {} of split region {}; it is deleted at the next open", parent.directory(),
          span.id(), ex);
    }
    splitHook.accept("parent-deleted");
    LOG.info("split region {} of table '{}' at '{}' into {} and {}", span.id(), table, Bytes.toStringBinary(key),
        daughters.get(0).id(), daughters.get(1).id());
    metrics.counter("regions.split").increment();
    for (Region r : daughters) {
      services.requestCompaction(r);
    }
  }

  /**
   * Tables whose routing no longer matches the catalog: a split committed but its daughters did not
   * open. Their splits, snapshots, alters and bulk loads are refused until the table is disabled and
   * enabled again or the engine reopened (either opens the daughters).
   */
  private final Set<String> splitUnfinished = ConcurrentHashMap.newKeySet();

  private void checkRoutingCurrent(String table) {
    if (splitUnfinished.contains(table)) {
      throw new StorageException("a split of table '" + table + "' committed but its daughters could not be opened:"
          + " disable and enable the table, or reopen the engine, first");
    }
  }

  /** Regions with an automatic split queued. */
  private final Set<Region> splitQueued = ConcurrentHashMap.newKeySet();

  /**
   * After a background flush or compaction of a region: if its largest store's sorted files reach
   * the table's {@code MAX_FILESIZE}, queues a split of it at its middle key on the split thread.
   */
  private void maybeSplit(Region r) {
    if (closed || r.isClosedForWork() || largestStoreBytes(r) < r.descriptor().get(Knobs.MAX_FILESIZE)
        || r.holdsRowsOutsideRange()) {
      return; // small enough, or a daughter whose linked files are not rewritten yet: they count twice
    }
    if (splitQueued.add(r)) {
      background.split(() -> {
        try {
          autoSplit(r);
        } catch (RuntimeException e) {
          LOG.warn("automatic split of region {} failed; it is tried again after its next flush or compaction",
              r.id(), e);
        } finally {
          splitQueued.remove(r);
        }
      });
    }
  }

  private static long largestStoreBytes(Region r) {
    long largest = 0;
    for (Store s : r.stores().values()) {
      largest = Math.max(largest, s.metrics().getOrDefault("store.files.bytes", 0L).longValue());
    }
    return largest;
  }

  private void autoSplit(Region r) {
    synchronized (ddlLock) {
      if (closed || r.isClosedForWork()) {
        return;
      }
      for (Map.Entry<String, TableRegions> t : openTables.entrySet()) {
        int index = t.getValue().regions().indexOf(r);
        if (index < 0) {
          continue;
        }
        if (largestStoreBytes(r) < r.descriptor().get(Knobs.MAX_FILESIZE) || r.holdsRowsOutsideRange()) {
          return;
        }
        byte[] key = r.midKey();
        if (key == null) {
          LOG.debug("region {} reached MAX_FILESIZE but has no middle key", r.id());
          return;
        }
        LOG.info("region {} of table '{}' reached MAX_FILESIZE; splitting it", r.id(), t.getKey());
        splitRegion(t.getKey(), entry(t.getKey()), t.getValue(), index, r, key);
        return;
      }
    }
  }

  /** Undoes a split that did not commit: daughters' directories deleted, the intent removed. */
  private void rollBack(Catalog.Entry e, Catalog.SplitIntent intent, RuntimeException cause) {
    if (intent == null) {
      return;
    }
    try {
      for (int d : new int[] {intent.daughterA(), intent.daughterB()}) {
        TableDirectories.deleteRegion(fs, layout.tableDir(e).resolve(TableDirectories.regionName(d)));
      }
      writeCatalog(catalog.withoutIntent());
    } catch (IOException | RuntimeException ex) {
      cause.addSuppressed(ex); // the intent stays: the next open rolls it back
    }
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
    if (rows.size() == 1) {
      RowMutation m = rows.get(0);
      onRow(table, m.row(), r -> {
        r.mutate(m.row(), m.cells(), m.wholeRowDeleteTs(), m.durability());
        return null;
      });
      return;
    }
    List<RowMutation> pending = rows;
    boolean validated = false;
    while (!pending.isEmpty()) {
      TableRegions t = regionsOf(table);
      List<List<RowMutation>> byRegion = byRegion(t, pending);
      // Bad input fails before any region applies anything (one region checks its own batch).
      if (!validated && t.size() > 1) {
        for (int i = 0; i < t.size(); i++) {
          if (byRegion.get(i) != null) {
            for (RowMutation m : byRegion.get(i)) {
              t.regions().get(i).validate(new Region.RowWrite(m.row(), m.cells(), m.wholeRowDeleteTs(), m.durability()));
            }
          }
        }
      }
      validated = true;
      List<RowMutation> retry = new ArrayList<>();
      for (int i = 0; i < t.size(); i++) {
        List<RowMutation> part = byRegion.get(i);
        if (part == null) {
          continue;
        }
        Region r = t.regions().get(i);
        try {
          r.mutateBatch(writes(part));
        } catch (RegionClosedException e) {
          RuntimeException cause = closedCause(table, e);
          if (!wasSplit(table, r)) {
            throw cause;
          }
          retry.addAll(part.subList(e.rowsApplied(), part.size())); // the rest goes to the daughters
        }
      }
      pending = retry;
    }
  }

  /**
   * The rows split by region, each region's in batch order (null for a region with none). A loop of
   * its own, out of {@link #mutate(TableRef, List)}, so that the big method is not compiled on stack
   * (see {@code Region.checked}).
   */
  private static List<List<RowMutation>> byRegion(TableRegions t, List<RowMutation> rows) {
    List<List<RowMutation>> byRegion = new ArrayList<>(t.size());
    for (int i = 0; i < t.size(); i++) {
      byRegion.add(null);
    }
    for (RowMutation m : rows) {
      int i = t.indexOf(m.row());
      if (byRegion.get(i) == null) {
        byRegion.set(i, new ArrayList<>());
      }
      byRegion.get(i).add(m);
    }
    return byRegion;
  }

  private static List<Region.RowWrite> writes(List<RowMutation> rows) {
    List<Region.RowWrite> writes = new ArrayList<>(rows.size());
    for (RowMutation m : rows) {
      writes.add(new Region.RowWrite(m.row(), m.cells(), m.wholeRowDeleteTs(), m.durability()));
    }
    return writes;
  }

  @Override
  public Outcome mutateRow(TableRef table, RowOperation op) {
    RowMutation m = op.mutation();
    return onRow(table, m.row(), r -> r.mutateRow(m.row(), op.condition(), m.cells(), m.wholeRowDeleteTs(),
        op.updates(), m.durability(), op.returnValues()));
  }

  /**
   * Reads the regions whose ranges meet the query's, in key order, one after the other: the next
   * region's scanner is opened when one ends, at that region's read point then. Within a region a
   * scan is one snapshot; across regions it is not (as in HBase).
   */
  @Override
  public RowScanner scan(TableRef table, ScanQuery query) {
    return new TableScanner(this, table, query, wantedRegions(table, query));
  }

  /**
   * Reads rows one by one (as the interface's default does) and counts what gets return, the
   * denominator of read amplification: {@code read.gets}, {@code read.returned.bytes} and
   * {@code read.returned.pages} (4 KiB pages per row, rounded up, as the SAC 2024 paper counts).
   */
  @Override
  public List<List<Cell>> getAll(TableRef table, List<ScanQuery> singleRowQueries) {
    List<List<Cell>> out = Engine.super.getAll(table, singleRowQueries);
    long bytes = 0;
    long pages = 0;
    for (List<Cell> row : out) {
      long b = 0;
      for (Cell c : row) {
        b += c.length();
      }
      bytes += b;
      pages += (b + 4095) / 4096;
    }
    metrics.counter("read.gets").add(out.size());
    metrics.counter("read.returned.bytes").add(bytes);
    metrics.counter("read.returned.pages").add(pages);
    return out;
  }

  /** The regions whose ranges meet the query's, in key order (at least one). */
  List<Region> wantedRegions(TableRef table, ScanQuery query) {
    TableRegions t = regionsOf(table);
    List<Region> wanted = new ArrayList<>();
    for (int i = 0; i < t.size(); i++) {
      if (overlaps(t.spans().get(i), query)) {
        wanted.add(t.regions().get(i));
      }
    }
    if (wanted.isEmpty()) {
      wanted.add(t.regionOf(query.startRow())); // an empty range: one region answers it, with nothing
    }
    return wanted;
  }

  /** Whether a region's range and a query's row range can share a row. */
  private static boolean overlaps(Catalog.Span span, ScanQuery q) {
    byte[] start = q.startRow();
    if (span.end().length > 0 && start.length > 0) {
      int c = Bytes.compare(span.end(), start);
      if (c < 0 || (c == 0)) {
        return false; // the region ends at or before the first wanted row
      }
    }
    byte[] stop = q.stopRow();
    if (stop.length > 0 && span.start().length > 0) {
      int c = Bytes.compare(span.start(), stop);
      if (c > 0 || (c == 0 && !q.stopInclusive())) {
        return false; // the region starts after the last wanted row
      }
    }
    return true;
  }

  /** The table's regions, if the table is still the table of the reference and enabled. */
  private TableRegions regionsOf(TableRef table) {
    TableRegions t = regionsOf(table.name());
    if (t.tableId() != table.id()) {
      throw new TableNotFoundException("table '" + table.name() + "' was dropped; the table of"
          + " that name now is a new one: get a new handle");
    }
    return t;
  }

  /**
   * Runs {@code op} on the region holding {@code row}. If that region was closed by a split before
   * the operation applied anything (a closed region refuses before it changes anything), the
   * operation goes to the daughter that holds the row now.
   */
  private <T> T onRow(TableRef table, byte[] row, Function<Region, T> op) {
    while (true) {
      Region r = regionsOf(table).regionOf(row);
      try {
        return op.apply(r);
      } catch (RegionClosedException e) {
        RuntimeException cause = closedCause(table, e);
        if (!wasSplit(table, r)) {
          throw cause;
        }
      }
    }
  }

  /** Whether a region the table still served is gone from its routing: a split replaced it. */
  boolean wasSplit(TableRef table, Region r) {
    return !regionsOf(table).regions().contains(r);
  }

  /**
   * Why a region was found closed, as the API says it: the engine is closed, or the table was
   * disabled or dropped meanwhile (each throws), else the region's own exception.
   */
  RuntimeException closedCause(TableRef table, RegionClosedException e) {
    checkOpen();
    regionsOf(table);
    return e;
  }

  // ================================================================== metrics

  /** Engine-wide metrics by name (WAL, flushes, compactions, memory, blocked time, GC). */
  @Override
  public Map<String, Number> metrics() {
    checkOpen();
    Map<String, Number> m = new TreeMap<>(metrics.snapshot());
    Wal w = wal;
    if (w != null) {
      m.put("wal.bytes.appended", w.bytesAppended());
      m.put("wal.records.appended", w.recordsAppended());
      m.put("wal.syncs", w.syncs());
      m.put("wal.forces", w.forces());
      m.put("wal.files", w.fileCount());
      m.put("wal.files.rolled", w.filesRolled());
      m.put("wal.files.deleted", w.filesDeleted());
      m.put("wal.files.fenced", w.filesFenced());
    }
    long data = 0;
    long overhead = 0;
    long files = 0;
    long bytesRead = 0;
    long blocksRead = 0;
    long pagesRead = 0;
    long flushing = 0;
    long compacting = 0;
    for (Region r : allRegions()) {
      for (Store s : r.stores().values()) {
        flushing += s.flushing() ? 1 : 0;
        compacting += s.compacting() ? 1 : 0;
        bytesRead += s.fileBytesRead();
        blocksRead += s.fileBlocksRead();
        pagesRead += s.filePagesRead();
        data += s.memStoreSize().dataBytes();
        overhead += s.memStoreSize().overheadBytes();
        files += s.fileCount();
      }
    }
    m.put("memstore.data.bytes", data);
    m.put("memstore.overhead.bytes", overhead);
    m.put("store.files", files);
    m.put("store.files.bytes.read", bytesRead);
    m.put("store.files.blocks.read", blocksRead);
    m.put("store.files.pages.read", pagesRead);
    m.put("flush.running", flushing);
    m.put("compaction.running", compacting);
    m.put("tables", catalog.tables().size());
    m.put("regions.open", allRegions().size());
    m.put("engine.instance.id", instanceId);
    m.put("file.number.next", nextFileNumber.get());
    EngineChunks.metrics(chunks).forEach((k, v) -> m.put("chunks." + k, v));
    m.putAll(blockCache.metrics());
    return m;
  }

  /**
   * Per-store metrics of a table: family name -&gt; metric name -&gt; value, each summed over the
   * table's regions (per-region sizes: {@link #regions}).
   */
  @Override
  public Map<String, Map<String, Number>> storeMetrics(String table) {
    Map<String, Map<String, Number>> out = new TreeMap<>();
    for (Region r : regionsOf(table).regions()) {
      for (Store s : r.stores().values()) {
        Map<String, Number> sum = out.computeIfAbsent(s.family().name(), k -> new TreeMap<>());
        s.metrics().forEach((k, v) -> sum.merge(k, v, LocalEngine::add));
      }
    }
    return out;
  }

  @Override
  public List<StoreSegments> memStoreSegments(String table) {
    List<StoreSegments> out = new ArrayList<>();
    for (Region r : regionsOf(table).regions()) {
      for (Store s : r.stores().values()) {
        out.add(new StoreSegments(r.id(), s.family().name(), s.memStoreSegments()));
      }
    }
    return out;
  }

  @Override
  public List<WalFileInfo> walFiles() {
    Wal w = wal;
    if (w == null) {
      return List.of();
    }
    List<WalFileInfo> out = new ArrayList<>();
    for (Path p : w.files()) {
      long bytes;
      try {
        bytes = fs.length(p);
      } catch (IOException deletedMeanwhile) {
        continue;
      }
      out.add(new WalFileInfo(p.getFileName().toString(), bytes));
    }
    return out;
  }

  private static Number add(Number a, Number b) {
    boolean integral = (a instanceof Long || a instanceof Integer) && (b instanceof Long || b instanceof Integer);
    return integral ? (Number) (a.longValue() + b.longValue()) : (Number) (a.doubleValue() + b.doubleValue());
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

  private TableRegions regionsOf(String name) {
    checkOpen();
    TableRegions r = openTables.get(name);
    if (r == null) {
      Catalog.Entry e = catalog.tables().get(name);
      if (e == null) {
        throw new TableNotFoundException("table '" + name + "' does not exist");
      }
      throw new TableNotEnabledException("table '" + name + "' is disabled");
    }
    return r;
  }

  private Catalog.Entry entry(String name) {
    checkOpen();
    Catalog.Entry e = catalog.tables().get(name);
    if (e == null) {
      throw new TableNotFoundException("table '" + name + "' does not exist");
    }
    return e;
  }

  private void writeCatalog(Catalog next) {
    try {
      next.write(fs, dir);
      catalog = next;
    } catch (IOException e) {
      throw new StorageException("cannot write the catalog of " + dir, e);
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new EngineClosedException("the engine of " + dir + " is closed");
    }
  }

  /** A flush or an in-memory compaction released memory-store data (its result said so). */
  private void memoryReleased() {
    deleteObsoleteWalFiles();
    backPressure.memoryReleased();
  }

  /** The WAL threshold: no edit at or above it may be deleted. See docs/ARCHITECTURE.md. */
  private void deleteObsoleteWalFiles() {
    Wal w = wal;
    if (w == null) {
      return;
    }
    w.deleteObsolete(walThreshold());
  }

  /** The oldest sequence id still needed from the WAL: edits below it are all in sorted files. */
  private long walThreshold() {
    // Order matters: the floor first, then in-flight mutations, then memory stores, so that a
    // mutation moving from "in flight" to "in a memory store" meanwhile is seen in one of them.
    long threshold = sequence.get() + 1;
    for (Region r : allRegions()) {
      threshold = Math.min(threshold, r.oldestPendingSeqId());
    }
    for (Region r : allRegions()) {
      threshold = Math.min(threshold, r.oldestUnflushedSeqId());
    }
    return threshold;
  }

  /**
   * When the WAL holds more files than allowed, flushes every table whose memory holds an edit of
   * the oldest file, so that the file can be deleted (the WAL would otherwise grow without bound
   * under a table that is written slowly).
   */
  private void flushForWalSize(Wal w) {
    int max = walMaxFiles;
    if (w.fileCount() <= max) {
      return;
    }
    Region oldest = null;
    for (Region r : allRegions()) {
      if (oldest == null || r.oldestUnflushedSeqId() < oldest.oldestUnflushedSeqId()) {
        oldest = r;
      }
    }
    if (oldest != null && oldest.oldestUnflushedSeqId() != Long.MAX_VALUE) {
      metrics.counter("flush.requested.by.wal.size").increment();
      background.requestFlushAll(oldest);
    }
  }

  /** Flushes and closes every table, stops background work, closes the WAL, unlocks the directory. */
  @Override
  public void close() {
    synchronized (ddlLock) {
      if (closed) {
        return;
      }
      closed = true;
    }
    RuntimeException first = null;
    boolean walFailed = errors.walFailed();
    for (Region r : allRegions()) {
      try {
        r.close(!walFailed);
      } catch (RuntimeException e) {
        first = first == null ? e : first;
      }
    }
    background.shutdown();
    blockCache.close();
    try {
      if (wal != null) {
        if (!walFailed && first == null) {
          // Every table flushed: no edit is needed any more, the last file goes too, and the next
          // open reads no log at all.
          wal.closeAndDeleteObsolete(walThreshold());
        } else {
          wal.close(); // a flush failed: its edits exist only in the log, which must stay whole
        }
      }
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
    closed = true;
    for (Region r : allRegions()) {
      try {
        r.close(false);
      } catch (RuntimeException ignored) {
        // already failing
      }
    }
    background.shutdownNow();
    blockCache.close();
    if (wal != null) {
      try {
        wal.close();
      } catch (RuntimeException ignored) {
        // already failing
      }
    }
    lock.release();
  }

  /** The engine's side of the region contract. */
  private final class Services implements RegionServices {
    @Override
    public void admitWrite(Region region, long bytes) {
      backPressure.admit(region, bytes);
    }

    @Override
    public void paceWrite(long bytes, double position, String cause) {
      backPressure.pace(bytes, position, cause);
    }

    @Override
    public EngineOptions options() {
      return options;
    }

    @Override
    public FileSystem fileSystem() {
      return fs;
    }

    private final RegionLog log = new SharedWalRegionLog(() -> wal);
    private final SequenceIds sequenceIds = SequenceIds.of(sequence);

    @Override
    public RegionLog log() {
      return log;
    }

    @Override
    public SequenceIds sequenceIds() {
      return sequenceIds;
    }

    @Override
    public FileNumberAllocator fileNumbers() {
      return fileNumbers;
    }

    @Override
    public long engineInstanceId() {
      return instanceId;
    }

    @Override
    public MetricSet metrics() {
      return metrics;
    }

    @Override
    public InMemoryWork inMemoryCompactions() {
      return background.inMemoryCompactions();
    }

    @Override
    public ChunkAllocator chunks() {
      return chunks;
    }

    @Override
    public BlockCache blockCache() {
      return blockCache;
    }

    @Override
    public io.bellows.kvcache.KvCache kvCache() {
      return blockCache instanceof io.bellows.kvcache.KvCachingBlockCache k ? k.kvCache() : null;
    }

    @Override
    public void requestFlush(Region region) {
      if (!closed) {
        background.requestFlush(region);
      }
    }

    @Override
    public void requestCompaction(Region region) {
      if (!closed) {
        background.requestCompaction(region);
      }
    }

    @Override
    public void wrote(Region region) {
      Wal w = wal;
      long rolled = w.filesRolled();
      if (rolled != rollsChecked.get() && rollsChecked.getAndSet(rolled) != rolled) {
        flushForWalSize(w);
      }
    }

    @Override
    public void walFailed(Throwable cause) {
      errors.walFailed(cause);
    }

    @Override
    public EventListener events() {
      return events;
    }

    @Override
    public void checkWritesAllowed() {
      try {
        errors.checkWritesAllowed();
      } catch (WritesStoppedException e) {
        writesRefused.increment();
        throw e;
      }
    }

    @Override
    public WritesStoppedException flushStalled(Region region, RuntimeException flushFailure) {
      writesRefused.increment();
      WritesStoppedException refused = errors.flushStalled(region, flushFailure, options.get(Knobs.BLOCKING_WAIT_MS));
      background.requestFlush(region); // a retry is queued whichever flush failed (it may have been an explicit one)
      return refused;
    }
  }
}
