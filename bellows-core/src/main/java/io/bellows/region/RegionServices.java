package io.bellows.region;

import io.bellows.cache.BlockCache;
import io.bellows.config.EngineOptions;
import io.bellows.fs.FileSystem;
import io.bellows.memstore.InMemoryWork;
import io.bellows.memstore.chunk.ChunkAllocator;
import io.bellows.metrics.MetricSet;
import io.bellows.store.FileNumberAllocator;
import io.bellows.util.EventListener;
import io.bellows.util.WritesStoppedException;

/** What a region needs from its host: its log and sequence ids, executors and scheduling. */
public interface RegionServices {
  EngineOptions options();

  /** The file system of the engine's data directory. */
  FileSystem fileSystem();

  /** The log the region's writes go to before they are acknowledged (see {@link RegionLog}). */
  RegionLog log();

  /** Where the region's sequence ids come from (see {@link SequenceIds}). */
  SequenceIds sequenceIds();

  /** The engine-wide counter that numbers sorted files, shared by every store of every table. */
  FileNumberAllocator fileNumbers();

  /** The id of this engine instance, unique per open (with a file number, a cache key prefix). */
  long engineInstanceId();

  MetricSet metrics();

  /** Runs memory stores' in-memory flushes and compactions and takes their results. */
  InMemoryWork inMemoryCompactions();

  /** The engine's chunk allocator . */
  ChunkAllocator chunks();

  /** The engine's block cache, shared by every store. */
  BlockCache blockCache();

  /** The engine's KV cache, or null when it is off. */
  default io.bellows.kvcache.KvCache kvCache() {
    return null;
  }

  /** Asks for a background flush of the region (idempotent while one is pending). */
  void requestFlush(Region region);

  /** Asks for a background minor compaction check of the region. */
  void requestCompaction(Region region);

  /**
   * Engine-wide back-pressure before a write of {@code bytes} (before the row lock): paces the
   * write while all memory stores together are near the engine's budget, waits at the budget.
   */
  void admitWrite(Region region, long bytes);

  /**
   * Paces a write of {@code bytes} whose store is at {@code position} (0..1) of a slow-down zone
   * before one of its limits; {@code cause} ({@code store.memory}, {@code store.files}) names it.
   */
  void paceWrite(long bytes, double position, String cause);

  /** Called after every mutation; must be cheap (the engine checks whether its log rolled). */
  void wrote(Region region);

  /** Called when the region's log failed: the engine stops accepting writes. */
  void walFailed(Throwable cause);

  /** The engine's event listeners, as one that never throws. */
  EventListener events();

  /**
   * Throws {@link WritesStoppedException} if the engine stopped accepting writes (a HARD background
   * error). Cheap: called before every mutation.
   */
  void checkWritesAllowed();

  /**
   * Called by a writer that waited {@code bellows.store.blocking.wait.ms} on a full memory store
   * while the region's flushes kept failing: the engine stops accepting writes. Returns what the
   * writer throws.
   */
  WritesStoppedException flushStalled(Region region, RuntimeException flushFailure);
}
