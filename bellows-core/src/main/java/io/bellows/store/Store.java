package io.bellows.store;

import io.bellows.kvcache.KvCache;
import io.bellows.scan.SortedCellsScanner;
import io.bellows.sstable.RowRead;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.compaction.CompactionJob;
import io.bellows.compaction.CompactionPolicy;
import io.bellows.fs.AtomicFiles;
import io.bellows.fs.FileSystem;
import io.bellows.manifest.StoreManifest;
import io.bellows.memstore.FlushSnapshot;
import io.bellows.memstore.MemStore;
import io.bellows.memstore.MemStoreContext;
import io.bellows.memstore.MemStoreSize;
import io.bellows.memstore.MemStores;
import io.bellows.metrics.MetricSet;
import io.bellows.scan.CellScanner;
import io.bellows.scan.RetentionFilter;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.sstable.BlockCaching;
import io.bellows.sstable.BlockSource;
import io.bellows.util.BackgroundError;
import io.bellows.util.DamagedFileException;
import io.bellows.util.EventListener;
import io.bellows.util.SourceClosedException;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One column family of one region: its memory store and its sorted files, with flush, compaction
 * and the per-store part of reads.
 *
 * <p>Threads: many writers call {@link #add}; readers call {@link #scanners}; one flusher at a time
 * runs {@link #flush} (guarded by {@code flushLock}); one compaction at a time runs {@link #compact}
 * (guarded by {@code compactionLock}; the work itself is a {@link CompactionJob}). The live files
 * and the manifest are a {@link StoreFiles}: readers retain the files they read, so a file is
 * deleted only after its last reader closes.
 *
 * <p>Invariant: every cell acknowledged to a writer is, at every moment, in the memory store
 * (active, pipeline or snapshot) or in a file listed by the manifest — a flush lists the new file
 * before it releases the snapshot, and readers look at the memory store before the files.
 */
public final class Store implements AutoCloseable {
  /** The most cells of one row a get copies out of a memory segment before it reads it in place. */
  static final int POINT_READ_CELLS = 256;
  /** Cells a get's read of a memory segment steps over before it reseeks past a column's older versions. */
  private static final int SKIP_STEPS = 8;

  private final ColumnFamilyDescriptor family;
  private final Path dir;
  private final StoreContext ctx;
  /** How this store's files use the engine's block cache. */
  private final BlockCaching caching;
  private final BlockSource.Wrapper blockWrapper;
  private final MemStore memStore;
  private final MetricSet metrics = new MetricSet();
  private final LongAdder flushCount = metrics.counter("flush.count");
  private final LongAdder flushBytes = metrics.counter("flush.bytes.written");
  private final LongAdder flushCells = metrics.counter("flush.cells");
  /** Files a get read a row from (after key range and Bloom filter), and those answered from a cache. */
  private final LongAdder fileLookups;
  private final LongAdder cachedLookups;
  /** Memory segments a get searched, and sources it skipped for having found its answer in newer ones. */
  private final LongAdder segmentLookups;
  private final LongAdder olderSkipped;

  private final StoreFiles files;
  private final ReentrantLock flushLock = new ReentrantLock();
  private final ReentrantLock compactionLock = new ReentrantLock();
  private final CompactionJob<StoreFile> compaction;
  /** The damaged file a compaction met: it stops this store's compactions and writes until set aside. */
  private final StoreDamage damage;
  private FlushSnapshot pendingSnapshot; // guarded by flushLock
  /** The sequence id every edit of the pending snapshot's store is covered up to; guarded by flushLock. */
  private long pendingSnapshotUpTo;
  private volatile boolean closed;
  /** Set first by {@link #close}: a running compaction stops rather than make the close wait for it. */
  private volatile boolean closing;

  /** Creates the directory of a new store with an empty manifest; then open it with the constructor. */
  public static void initialize(FileSystem fs, Path dir) {
    try {
      StoreManifest.initialize(fs, dir);
    } catch (IOException e) {
      throw new StorageException("cannot create store " + dir, e);
    }
  }

  /**
   * Opens the existing store in {@code dir} ({@link #initialize}d before): loads its manifest and
   * files and deletes leftovers. A missing directory or manifest fails the open; nothing is deleted.
   */
  public Store(ColumnFamilyDescriptor family, Path dir, StoreContext ctx) {
    this.family = family;
    this.dir = dir;
    this.ctx = ctx;
    this.caching = new BlockCaching(ctx.blockCache(), ctx.options().cache());
    this.blockWrapper = caching.wrapper();
    this.fileLookups = ctx.engineMetrics().counter("read.file.lookups");
    this.cachedLookups = ctx.engineMetrics().counter("read.file.lookups.cached");
    this.segmentLookups = ctx.engineMetrics().counter("read.segment.lookups");
    this.olderSkipped = ctx.engineMetrics().counter("read.older.sources.skipped");
    try {
      this.files = StoreFiles.open(dir, ctx, blockWrapper);
    } catch (IOException e) {
      throw new StorageException("cannot open store " + dir, e);
    }
    this.damage = new StoreDamage(ctx, family.name(), files);
    this.compaction = new CompactionJob<>(ctx.table(), family.name(), ctx.events(),
        new StoreCompactionTarget(dir, ctx, files, damage, caching, blockWrapper),
        CompactionPolicy.forStore(ctx.options().compaction()), metrics);
    MemStoreContext msc = new MemStoreContext(family.name(), ctx.options().memStore(), ctx.flushSize(),
        ctx.chunks(), ctx.inMemoryCompactions(), () -> StoreFileWriting.retention(ctx, RetentionFilter.Mode.FLUSH), ctx.clock(),
        MemStoreContext.Listener.NONE);
    this.memStore = MemStores.create(msc);
    metrics.gauge("store.files", () -> files.live().size());
    metrics.gauge("store.files.bytes", files::bytes);
    metrics.gauge("store.files.bytes.read", this::fileBytesRead);
    metrics.gauge("store.files.blocks.read", this::fileBlocksRead);
    metrics.gauge("store.files.pages.read", this::filePagesRead);
    // Held for the whole of a flush (or a compaction), so a held lock is one in progress.
    metrics.gauge("flush.running", () -> flushing() ? 1 : 0);
    metrics.gauge("compaction.running", () -> compacting() ? 1 : 0);
  }

  /**
   * Sets the row range the store serves, [start, end) (an empty key is unbounded): compactions drop
   * cells outside it. A daughter of a split starts with hard links to its parent's files, which
   * hold the other daughter's rows too; its compactions rewrite only its half.
   */
  public void keyRange(byte[] start, byte[] end) {
    compaction.keyRange(start, end);
  }

  /** Waits for a running compaction and keeps new ones out until {@link #unblockCompactions}. */
  public void blockCompactions() {
    compactionLock.lock();
  }

  public void unblockCompactions() {
    compactionLock.unlock();
  }

  /**
   * Creates a daughter store of a split in {@code target}: a hard link to each of this store's live
   * files and a manifest listing them with this store's flushedSeqId. The caller blocks flushes and
   * compactions of this store meanwhile, so the file set does not change.
   */
  public void linkInto(Path target) {
    try {
      StoreManifest m = files.manifest();
      FileSystem fs = ctx.fs();
      AtomicFiles.createDirectories(fs, target); // the daughter's region directory too
      for (long id : m.fileIds()) {
        String name = StoreManifest.fileName(id);
        fs.link(dir.resolve(name), target.resolve(name));
      }
      fs.syncDirectory(target);
      new StoreManifest(m.flushedSeqId(), Math.max(m.nextFileId(), ctx.fileNumbers().next()), m.fileIds()).write(fs, target);
      fs.syncDirectory(target.toAbsolutePath().getParent());
    } catch (IOException e) {
      throw new StorageException("cannot link the files of " + dir + " into " + target, e);
    }
  }

  /**
   * Makes a store in {@code target} of the files the store in {@code source} lists (its manifest):
   * each hard-linked under a new number from {@code numbers}, so that the files join the numbering
   * of the engine that will open {@code target} (a clone of a snapshot, possibly made by another
   * engine) and a number never names two files' bytes; with {@code numbers} null, under its own
   * number. The new manifest keeps the source's flushedSeqId, which this returns. Neither store may
   * be open. The target directory is made, its entries and its parent's synced.
   */
  public static long linkStore(FileSystem fs, Path source, Path target, FileNumberAllocator numbers) {
    try {
      StoreManifest m = StoreManifest.load(fs, source);
      AtomicFiles.createDirectories(fs, target);
      List<Long> ids = new ArrayList<>(m.fileIds().size());
      for (long id : m.fileIds()) {
        long to = numbers == null ? id : numbers.allocate();
        fs.link(source.resolve(StoreManifest.fileName(id)), target.resolve(StoreManifest.fileName(to)));
        ids.add(to);
      }
      fs.syncDirectory(target);
      long next = numbers == null ? m.nextFileId() : numbers.next();
      new StoreManifest(m.flushedSeqId(), next, ids).write(fs, target);
      fs.syncDirectory(target.toAbsolutePath().getParent());
      return m.flushedSeqId();
    } catch (IOException e) {
      throw new StorageException("cannot link the files of " + source + " into " + target, e);
    }
  }

  /** The family's descriptor, as the store was opened with (the store itself uses only its name). */
  public ColumnFamilyDescriptor family() {
    return family;
  }

  /** The store's resolved settings. */
  public StoreOptions options() {
    return ctx.options();
  }

  public Path directory() {
    return dir;
  }

  /** Highest sequence id whose edits are all in this store's files (WAL replay skips up to it). */
  public long flushedSeqId() {
    return files.flushedSeqId();
  }

  // ------------------------------------------------------------------ writes

  /** Adds one cell (sequence id stamped) to the memory store. */
  public void add(Cell cell) {
    memStore.add(cell);
  }

  /** Adds cells of this store's family, stamped, in order: one entry into the memory store per slice. */
  public void addAll(List<Cell> cells) {
    memStore.addAll(cells);
  }

  public MemStoreSize memStoreSize() {
    return memStore.size();
  }

  public long oldestUnflushedSeqId() {
    return memStore.oldestUnflushedSeqId();
  }

  public int fileCount() {
    return files.live().size();
  }

  /** The live files now, oldest data first (an immutable snapshot; not retained for reading). */
  public List<StoreFile> files() {
    return files.live();
  }

  /**
   * The newest timestamp of any cell the store holds, tombstones included ({@link Long#MIN_VALUE}
   * when it holds none): its memory segments, then its files, so a segment flushed between the two
   * is seen in one or the other. Cheap (ranges each segment and file keeps), not for the data path.
   */
  public long newestTimestamp() {
    long newest = Long.MIN_VALUE;
    for (CellScanner s : memStore.scanners()) {
      try {
        newest = Math.max(newest, s.newestTimestamp());
      } finally {
        s.close();
      }
    }
    for (StoreFile f : files.live()) {
      newest = Math.max(newest, f.newestTimestamp());
    }
    return newest;
  }

  // ------------------------------------------------------------------ reads

  /**
   * Scanners for a read: memory segments first, then files, each kept only if it may hold cells the
   * query wants. The caller closes them all.
   */
  public List<CellScanner> scanners(ScanQuery query) {
    // Sources holding only cells newer than the query's time range still count (see there).
    List<CellScanner> segments = memStore.scanners();
    if (query != null && query.isSingleRow() && !query.reversed()) {
      return pointReads(segments, query);
    }
    List<CellScanner> out = new ArrayList<>();
    try {
      for (CellScanner s : segments) {
        keepIfUseful(s, query, out);
      }
    } catch (RuntimeException e) {
      segments.forEach(CellScanner::close); // idempotent; what is in out came from these
      throw e;
    }
    List<StoreFile> pinned = retainFiles(out);
    try {
      for (StoreFile f : pinned) {
        keepIfUseful(f.scanner(), query, out);
      }
    } catch (RuntimeException e) {
      out.forEach(CellScanner::close);
      throw e;
    } finally {
      for (StoreFile f : pinned) {
        f.release(); // each scanner holds its own reference
      }
    }
    return out;
  }

  /** The live files, retained; if the store is closed, closes {@code open} and throws. */
  private List<StoreFile> retainFiles(List<CellScanner> open) {
    List<StoreFile> pinned = files.retainLive();
    if (pinned == null) { // closed: its files are released, reading on would silently miss them
      open.forEach(CellScanner::close);
      throw new SourceClosedException("store '" + family.name() + "' is closed");
    }
    return pinned;
  }

  /** A memory segment or a file that may hold a get's row, with the newest timestamp it holds. */
  private record PointSource(CellScanner segment, StoreFile file, long newest) {}

  /**
   * A get's sources (docs/design/scan.md, "Gets: newest first"): the memory segments and files
   * that may hold the row (key range, time range, read point, row or Bloom filter), each read into
   * a short list of the row's cells. When the get names its columns, the sources are read newest
   * timestamp first, and once the newest versions of every column are found above the next
   * source's newest timestamp ({@link FoundVersions}), that source and every older one are skipped
   * unread: a Zipf-hot row found in the active segment then costs one segment search instead of
   * one per pipeline segment and file.
   */
  private List<CellScanner> pointReads(List<CellScanner> segments, ScanQuery query) {
    List<PointSource> sources = new ArrayList<>(segments.size() + 8);
    try {
      for (CellScanner s : segments) {
        if (s.shouldUse(query)) {
          sources.add(new PointSource(s, null, s.newestTimestamp()));
        } else {
          s.close();
        }
      }
    } catch (RuntimeException e) {
      segments.forEach(CellScanner::close);
      throw e;
    }
    List<StoreFile> pinned = retainFiles(segments);
    List<CellScanner> out = new ArrayList<>();
    int next = 0; // sources before it were read (each read closes its segment unless kept in out)
    try {
      for (StoreFile f : pinned) {
        if (f.mayHold(query)) {
          sources.add(new PointSource(null, f, f.newestTimestamp()));
        }
      }
      int versions = ctx.options().retention().maxVersions();
      FoundVersions found = FoundVersions.of(query, family.nameBytes(), versions);
      if (found != null) {
        sources.sort(NEWEST_FIRST); // stable: memory before files at equal timestamps
      }
      for (; next < sources.size(); next++) {
        PointSource s = sources.get(next);
        if (found != null && found.answeredAbove(s.newest())) {
          olderSkipped.add(sources.size() - next);
          break;
        }
        CellScanner r = s.segment() != null ? pointRead(s.segment(), query, versions, found)
            : pointRead(s.file(), query, found);
        if (r != null) {
          out.add(r);
        }
      }
    } catch (RuntimeException e) {
      out.forEach(CellScanner::close);
      segments.forEach(CellScanner::close); // idempotent
      throw e;
    } finally {
      for (StoreFile f : pinned) {
        f.release(); // what was read from them is copied out
      }
    }
    for (int i = next; i < sources.size(); i++) {
      if (sources.get(i).segment() != null) {
        sources.get(i).segment().close(); // skipped unread
      }
    }
    return out;
  }

  private static final java.util.Comparator<PointSource> NEWEST_FIRST =
      (a, b) -> Long.compare(b.newest(), a.newest());

  /**
   * A get's read of one file (docs/design/kv-cache.md): skipped if the key range, time range or
   * Bloom filter rule the file out; else the row's cells from the KV cache, or from the one data
   * block that holds them (counting the read towards promotion when that block is cached). The
   * caller holds a reference to the file. Null when the file has nothing for the row.
   */
  private CellScanner pointRead(StoreFile f, ScanQuery query, FoundVersions found) {
    byte[] row = query.startRow();
    fileLookups.increment();
    KvCache kv = ctx.options().cache().kvCache() ? ctx.kvCache() : null;
    List<Cell> cells = kv == null ? null : kv.get(f.id(), row);
    if (cells != null) {
      cachedLookups.increment();
    } else {
      RowRead r = f.readRow(row);
      cells = r.cells();
      if (r.cacheHit()) {
        cachedLookups.increment();
      }
      if (kv != null && r.cached() != null && r.endedInBlock()) {
        kv.countRead(f.id(), row, cells, r.cached(), r.rowStart(), () -> f.rowCount(r));
      }
    }
    if (found != null) {
      found.add(cells);
    }
    return cells.isEmpty() ? null : new SortedCellsScanner(cells);
  }

  /**
   * A get's read of one memory segment: the row's cells, taken with one seek into a list, so that
   * the merge, version and column skips of the read work on a few cells in an array instead of
   * re-searching the segment's index (a skiplist seek per skip). The segment's scanner is closed,
   * its cells being copies or heap cells that outlive it. Null when the segment has nothing for the
   * row.
   *
   * <p>A column updated often (a hot counter, a hot row of a Zipf workload) gathers many versions
   * in the active segment. Once a column of the segment has shown the family's {@code VERSIONS}
   * distinct timestamps of puts the reader may see, the rest of that column in the segment is
   * skipped (docs/design/scan.md, step 4: versions beyond are gone for good whatever the other
   * sources hold, and a marker that masks one of them masks every older put). The empty qualifier is
   * never cut short: its DELETE_FAMILY markers mask the other columns. A row of more than {@link
   * #POINT_READ_CELLS} cells keeps the scanner itself (the read seeks it again).
   */
  private CellScanner pointRead(CellScanner segment, ScanQuery query, int versions, FoundVersions found) {
    segmentLookups.increment();
    byte[] row = query.startRow();
    long readPoint = query.readPoint();
    List<Cell> cells = new ArrayList<>(16);
    if (segment.seekRow(row, query.rowHash())) {
      Cell column = null; // the first cell of the column being read
      int counted = 0;
      long lastTimestamp = 0;
      for (Cell c; (c = segment.peek()) != null && c.isRow(row); ) {
        if (column == null || !c.sameColumn(column)) {
          column = c;
          counted = 0;
        } else if (counted == versions && column.qualifierLength() > 0) {
          skipColumn(segment, column);
          continue;
        }
        if (cells.size() == POINT_READ_CELLS) {
          return segment; // a wide row: read in place (its cells do not count towards stopping)
        }
        cells.add(c);
        if (c.typeCode() == CellType.PUT.code() && c.seqId() <= readPoint && (counted == 0 || c.timestamp() != lastTimestamp)) {
          counted++;
          lastTimestamp = c.timestamp();
        }
        segment.next();
      }
    }
    segment.close();
    if (found != null) {
      found.add(cells);
    }
    return cells.isEmpty() ? null : new SortedCellsScanner(cells);
  }

  /**
   * Moves {@code segment} past the rest of {@code column}: a few steps first (a column of the active
   * segment usually holds a handful of versions), then a reseek, whose search key is built only
   * then.
   */
  private static void skipColumn(CellScanner segment, Cell column) {
    for (int i = 0; i < SKIP_STEPS; i++) {
      segment.next();
      Cell c = segment.peek();
      if (c == null || !c.sameColumn(column)) {
        return;
      }
    }
    segment.reseek(Cells.lastOnColumn(column));
  }

  private static void keepIfUseful(CellScanner s, ScanQuery query, List<CellScanner> out) {
    if (query == null || s.shouldUse(query)) {
      out.add(s);
    } else {
      s.close();
    }
  }

  // ------------------------------------------------------------------ flush

  /**
   * Freezes the memory store for a disk flush. The region calls this while no mutation is between
   * sequence-id assignment and memory-store insertion, with {@code upTo} the highest sequence id
   * assigned so far: every edit of this store up to it is then in the snapshot, or was dropped
   * from memory as redundant (an in-memory compaction drops masked and surplus cells, whose
   * sequence ids the snapshot no longer shows). The flush records {@code upTo} as flushed, so that
   * replaying the WAL after a crash never brings such a dropped cell back — after a major
   * compaction has removed what masked it, it would be visible again. Returns false if there is
   * nothing to flush.
   */
  public boolean prepareFlush(long upTo) {
    flushLock.lock();
    try {
      if (pendingSnapshot == null) {
        FlushSnapshot s = memStore.snapshot();
        if (s.cellCount() == 0) {
          memStore.releaseSnapshot(s);
          return false;
        }
        pendingSnapshot = s;
        pendingSnapshotUpTo = Math.max(upTo, s.maxSeqId());
      }
      return true;
    } finally {
      flushLock.unlock();
    }
  }

  /**
   * Writes the prepared snapshot to a new sorted file, lists it in the manifest, then frees the
   * snapshot. If writing fails the snapshot stays and the next flush retries it.
   */
  public void flush() {
    flushLock.lock();
    try {
      FlushSnapshot snap = pendingSnapshot;
      if (snap == null || closed) {
        return;
      }
      long start = System.nanoTime();
      long snapBytes = snap.size().dataBytes();
      ctx.events().flushBegin(new EventListener.FlushInfo(ctx.table(), family.name(), snap.cellCount(), snapBytes,
          -1, -1, Duration.ZERO));
      long fileId = allocateFileId();
      RetentionFilter filter = StoreFileWriting.retention(ctx, RetentionFilter.Mode.FLUSH);
      StoreFile written;
      try (CellScanner in = snap.scanner()) {
        written = StoreFileWriting.write(dir, fileId, ctx, in, filter, snap.cellCount(), false, caching, blockWrapper, true);
      }
      long flushedUpTo = Math.max(flushedSeqId(), pendingSnapshotUpTo);
      files.commit(written == null ? List.of() : List.of(written), List.of(), flushedUpTo);
      pendingSnapshot = null;
      long cells = snap.cellCount();
      memStore.releaseSnapshot(snap);
      flushCount.increment();
      flushCells.add(written == null ? 0 : written.cellCount()); // what reached the file, not the snapshot
      if (written != null) {
        flushBytes.add(written.size());
      }
      // The engine's flush metrics come from this event (io.bellows.metrics.EventMetrics).
      ctx.events().flushEnd(new EventListener.FlushInfo(ctx.table(), family.name(), cells, snapBytes,
          written == null ? -1 : written.id(), written == null ? 0 : written.size(),
          Duration.ofNanos(System.nanoTime() - start)));
    } finally {
      flushLock.unlock();
    }
  }

  // ------------------------------------------------------------------ compaction

  /** Files a minor compaction would merge now (empty if none), as the store's policy picks them. */
  public List<StoreFile> selectMinor() {
    return compaction.selectMinor();
  }

  /**
   * Compacts the files a minor compaction picks, or all files if {@code major}, into one file.
   * A minor compaction returns false at once if another compaction is running (that one already
   * relieves the store); a major compaction waits for it, because its caller relies on every file
   * being rewritten with the MAJOR rules when it returns. Returns false if nothing was compacted,
   * also when the store began to close meanwhile: the compaction then stops and its files stay.
   */
  public boolean compact(boolean major) {
    if (major) {
      compactionLock.lock();
    } else if (!compactionLock.tryLock()) {
      return false;
    }
    try {
      return !closed && compaction.run(major, () -> closing);
    } finally {
      compactionLock.unlock();
    }
  }

  /** The damaged file a compaction met (writes and compactions of this store are stopped), or null. */
  public DamagedFileException damage() {
    return damage.damage();
  }

  /** The background error of {@link #damage()}, or null. */
  public BackgroundError damageError() {
    return damage.error();
  }

  /**
   * Throws {@link io.bellows.util.WritesStoppedException} if a compaction met a damaged file of this
   * store: a write could not be compacted with it, and a repair may bring older versions back. One
   * volatile read.
   */
  public void checkWritable() {
    damage.checkWritable();
  }

  /**
   * Sets the damaged file aside online, as {@code bellows repair --fix} does offline: gives it the
   * name {@code target} (a hard link, synced), then drops it from the manifest, and only then lets
   * the store's name of it go (when its last reader closes). A crash in between leaves a store that
   * opens: before the manifest write the file is still listed (and also under {@code target}); after
   * it, the old name is a leftover the next open deletes, its bytes kept under {@code target}.
   * Nothing is copied or lost beyond the file's cells. Clears the damage: compactions and writes go
   * on. Returns false if the file is no longer live (nothing done).
   */
  public boolean quarantine(DamagedFileException d, Path target) {
    compactionLock.lock();
    try {
      return !closed && damage.quarantine(d, target);
    } finally {
      compactionLock.unlock();
    }
  }

  /**
   * Checks every block of every live file (see {@link FileCheck}), holding a reference to each while
   * it is checked so a concurrent compaction cannot delete it under the check.
   */
  public List<FileCheck.Result> verifyFiles() {
    List<StoreFile> pinned = files.retainLive();
    List<StoreFile> current = pinned == null ? List.of() : pinned; // a closed store has no files
    List<FileCheck.Result> out = new ArrayList<>();
    for (StoreFile f : current) {
      try {
        out.add(FileCheck.check(ctx.fs(), f.path(), f.id()));
      } finally {
        f.release();
      }
    }
    return out;
  }

  // ------------------------------------------------------------------ bulk load

  /**
   * A bulk load's first step: writes {@code cells} (sorted, of this family; the caller stamps their
   * sequence id and keeps them to this store's rows) to a new file of this store, forced and under
   * its final name but not live: the manifest does not list it until {@link #adoptLoaded}. Returns
   * null if no cell was left to write (the version and TTL rules apply as in a flush).
   */
  public StoreFile writeLoaded(CellScanner cells, long expectedCells) {
    return StoreFileWriting.write(dir, allocateFileId(), ctx, cells, StoreFileWriting.retention(ctx, RetentionFilter.Mode.FLUSH),
        expectedCells, false, caching, blockWrapper, false);
  }

  /** A bulk load's commit for this store: the loaded files become live, newest, in one manifest write. */
  public void adoptLoaded(List<StoreFile> loaded, long seqId) {
    files.commit(loaded, List.of(), seqId);
  }

  /** Drops a file {@link #writeLoaded} wrote that is not to be adopted: it is deleted. */
  public static void discardLoaded(StoreFile f) {
    f.markForDeletion();
    f.release();
  }

  /**
   * Adds a loaded file to the manifest of the (closed) store in {@code storeDir} if it is there and
   * not yet listed: the roll-forward of a bulk load that a crash interrupted after its commit point.
   */
  public static void adoptLoadedOffline(FileSystem fs, Path storeDir, long fileId, long seqId) throws IOException {
    StoreManifest m = StoreManifest.load(fs, storeDir);
    if (m.fileIds().contains(fileId) || !fs.exists(storeDir.resolve(StoreManifest.fileName(fileId)))) {
      return;
    }
    List<Long> ids = new ArrayList<>(m.fileIds());
    ids.add(fileId);
    new StoreManifest(Math.max(m.flushedSeqId(), seqId), Math.max(m.nextFileId(), fileId + 1), ids).write(fs, storeDir);
  }

  // ------------------------------------------------------------------ file set changes

  /**
   * A new file number from the engine-wide counter (never the store's own: numbers must be unique
   * across stores). The manifest's {@code nextFileId} follows the counter at its next write.
   */
  private long allocateFileId() {
    return ctx.fileNumbers().allocate();
  }

  // ------------------------------------------------------------------ metrics & lifecycle

  /** Bytes read from this store's files since open, by reads and compactions. */
  public long fileBytesRead() {
    return files.bytesRead();
  }

  /** 4 KiB pages of this store's files its reads touched since open. */
  public long filePagesRead() {
    return files.pagesRead();
  }

  /** Blocks of every type read from this store's files since open, opens included (block-cache hits are not reads). */
  public long fileBlocksRead() {
    return files.blocksRead();
  }

  /** Whether a flush is in progress (its lock is held for the whole of it, and while a snapshot is taken). */
  public boolean flushing() {
    return flushLock.isLocked();
  }

  /** Whether a compaction is in progress (its lock is held for the whole of it). */
  public boolean compacting() {
    return compactionLock.isLocked();
  }

  /** The memory store's segments now (see {@link MemStore#segments()}). */
  public List<io.bellows.memstore.SegmentInfo> memStoreSegments() {
    return memStore.segments();
  }

  public Map<String, Number> metrics() {
    Map<String, Number> m = metrics.snapshot();
    m.putAll(memStore.metrics()); // every name already starts with "memstore."
    return new java.util.TreeMap<>(m);
  }

  public boolean flushBlocked(double multiplier) {
    return memStore.size().footprint() > multiplier * ctx.flushSize();
  }

  public boolean tooManyFiles() {
    return files.live().size() > ctx.options().blockingFiles();
  }

  /**
   * Stops compactions (a running one gives up within a few hundred cells, its input files kept, rather
   * than make the close wait for a rewrite the next open does not need) and releases files and memory.
   * Flushing first is the region's job.
   */
  @Override
  public void close() {
    closing = true;
    compactionLock.lock();
    flushLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      files.close();
      memStore.close();
    } finally {
      flushLock.unlock();
      compactionLock.unlock();
    }
  }
}
