package io.bellows.bench;

import io.bellows.scan.Retention;
import io.bellows.region.OptionsResolver;
import io.bellows.cell.Cell;
import io.bellows.memstore.FlushSnapshot;
import io.bellows.memstore.MemStore;
import io.bellows.memstore.InMemoryWork;
import io.bellows.memstore.MemStoreContext;
import io.bellows.memstore.MemStoreSize;
import io.bellows.memstore.MemStores;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.scan.RetentionFilter;
import io.bellows.scan.RetentionFilters;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.util.Clock;
import io.bellows.scan.CellScanner;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One memory store as the engine runs it, minus the WAL and the disk: built by {@link MemStores}
 * from a {@link StoreConfig}, with its own chunk allocator and a real background thread for
 * in-memory flushes, merges and compactions (as the engine's {@code bellows.memstore.compaction.threads}
 * pool). Writers stamp increasing sequence ids; when the footprint reaches the flush size, the writer
 * that notices simulates the disk flush: {@code snapshot()} then {@code releaseSnapshot()}, counting
 * the snapshot and the cells and bytes it would have written.
 *
 * <p>The in-memory compaction's retention filter uses the newest sequence id as the smallest read
 * point: no reader is open, so every overwritten version is redundant, as in a write-only workload.
 *
 * <p>Thread-safety: {@link #addRow} and {@link #add} from any number of writer threads; the flush
 * is serialized by a try-lock (a writer that finds a flush in progress goes on writing, like the
 * engine's writers while its flusher runs). {@link #awaitQuiescent} and {@link #close} only when no
 * writer runs.
 */
public final class MemStoreHarness implements AutoCloseable {
  private final StoreConfig config;
  private final ChunkAllocator chunks;
  private final ThreadPoolExecutor background;
  private volatile Thread backgroundThread;
  private final MemStore memStore;
  private final AtomicLong seqIds = new AtomicLong();
  private final ReentrantLock flushLock = new ReentrantLock();
  private final AtomicLong diskFlushes = new AtomicLong();
  private final AtomicLong flushedCells = new AtomicLong();
  private final AtomicLong flushedBytes = new AtomicLong();

  public MemStoreHarness(StoreConfig config) {
    this(config, config.family());
  }

  /** A store of {@code config} whose family descriptor is {@code family} (for extra family knobs). */
  public MemStoreHarness(StoreConfig config, ColumnFamilyDescriptor family) {
    this.config = config;
    this.chunks = OptionsResolver.chunkAllocator(config.engine());
    this.background = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
      Thread t = new Thread(r, "bench-in-memory-compaction");
      t.setDaemon(true);
      backgroundThread = t;
      return t;
    });
    background.prestartAllCoreThreads();
    Retention retention = OptionsResolver.retention(family);
    MemStoreContext context = new MemStoreContext(family.name(), OptionsResolver.memStore(family), config.flushSize(), chunks,
        InMemoryWork.on(background),
        () -> RetentionFilters.create(retention, RetentionFilter.Mode.FLUSH, seqIds.get(), Clock.SYSTEM.currentTimeMillis()),
        Clock.SYSTEM, MemStoreContext.Listener.NONE);
    this.memStore = MemStores.create(context);
  }

  public StoreConfig config() {
    return config;
  }

  /** Adds one cell, stamping the next sequence id; does not check for a flush. */
  public void add(Cell cell) {
    cell.setSeqId(seqIds.incrementAndGet());
    memStore.add(cell);
  }

  /** Adds the cells of one put, then flushes to "disk" if the store is full. */
  public void addRow(Cell[] row) {
    for (Cell c : row) {
      add(c);
    }
    maybeFlush();
  }

  /** Simulates a disk flush if the footprint reached the flush size; true if this call flushed. */
  public boolean maybeFlush() {
    if (memStore.size().footprint() < config.flushSize() || !flushLock.tryLock()) {
      return false;
    }
    try {
      if (memStore.size().footprint() < config.flushSize()) {
        return false; // another writer just flushed
      }
      FlushSnapshot snapshot = memStore.snapshot();
      flushedCells.addAndGet(snapshot.cellCount());
      flushedBytes.addAndGet(snapshot.size().dataBytes());
      memStore.releaseSnapshot(snapshot);
      diskFlushes.incrementAndGet();
      return true;
    } finally {
      flushLock.unlock();
    }
  }

  /**
   * Waits until the background thread has nothing running or queued. The executor has one thread,
   * so once a marker task has run and the queue is empty, every compaction scheduled before it has
   * finished, and (with no writer running) nothing can schedule another.
   */
  public void awaitQuiescent() {
    try {
      do {
        background.submit(() -> {}).get();
      } while (!background.getQueue().isEmpty());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for in-memory compactions", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  /** The memory store's scanners (active, pipeline, snapshot); the caller closes them. */
  public List<CellScanner> scanners() {
    return memStore.scanners();
  }

  public MemStoreSize size() {
    return memStore.size();
  }

  public Map<String, Number> metrics() {
    return memStore.metrics();
  }

  public ChunkAllocator.Stats chunkStats() {
    return chunks.stats();
  }

  /** Simulated disk flushes (snapshots) so far. */
  public long diskFlushes() {
    return diskFlushes.get();
  }

  /** Cells the simulated disk flushes would have written. */
  public long flushedCells() {
    return flushedCells.get();
  }

  /** Serialized cell bytes the simulated disk flushes would have written. */
  public long flushedBytes() {
    return flushedBytes.get();
  }

  /** Sequence ids handed out so far (= cells added). */
  public long cellsAdded() {
    return seqIds.get();
  }

  /** The thread running in-memory compactions, for per-thread allocation counters. */
  public Thread backgroundThread() {
    return backgroundThread;
  }

  /**
   * Waits for background work, frees the store and waits for the background thread to end: until it
   * has, the thread (through its executor and thread factory) keeps this harness and its store
   * reachable, which would distort heap measurements taken right after.
   */
  @Override
  public void close() {
    awaitQuiescent();
    memStore.close();
    background.shutdown();
    try {
      if (!background.awaitTermination(1, TimeUnit.MINUTES)) {
        throw new IllegalStateException("background thread did not end");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while closing", e);
    }
  }
}
