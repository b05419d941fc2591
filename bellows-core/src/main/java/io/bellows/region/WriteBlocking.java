package io.bellows.region;

import io.bellows.cell.Cell;
import io.bellows.schema.TableDescriptor;
import io.bellows.store.Store;
import io.bellows.util.EventListener;
import io.bellows.util.StorageException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Back-pressure of a region's writes, before the row lock: refuses writes while the engine stopped
 * accepting them or to a damaged store, paces writes while a store nears its memory or file limit,
 * and makes them wait (a write stall) once it is over; after a write, asks for a flush of a full
 * store.
 */
final class WriteBlocking {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Region.class);

  private final Region region;
  private final RegionServices services;
  private final RegionFlusher flusher;
  private final TableDescriptor descriptor;
  private final double blockMultiplier;
  private final long blockingWaitNanos;
  private final int blockingFiles;
  private final java.util.concurrent.atomic.AtomicLong lastBlockWarning =
      new java.util.concurrent.atomic.AtomicLong(System.nanoTime() - TimeUnit.MINUTES.toNanos(1));

  WriteBlocking(Region region, RegionServices services, RegionFlusher flusher, RegionOptions settings) {
    this.region = region;
    this.services = services;
    this.flusher = flusher;
    this.descriptor = region.descriptor();
    this.blockMultiplier = settings.blockMultiplier();
    this.blockingWaitNanos = settings.blockingWaitNanos();
    this.blockingFiles = settings.blockingFiles();
  }

  /**
   * Back-pressure, before the row lock: refuses the write if the engine stopped accepting writes,
   * and waits while a store of the write is over its memory or file limit.
   */
  void waitIfBlocked(List<Cell> cells) {
    services.checkWritesAllowed();
    refuseWritesToDamagedStores(cells);
    long bytes = bytesOf(cells);
    services.admitWrite(region, bytes);
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
      Object flushSignal = flusher.signal();
      try {
        synchronized (flushSignal) {
          // Memory full: wait for a flush to free it, however long a working flush takes; but while
          // flushes fail, only until the deadline: then the engine stops accepting writes and this
          // one is refused (nothing of it is applied). Writes stopped meanwhile end the wait too.
          while (!region.isClosedForWork() && s.flushBlocked(multiplier)) {
            services.checkWritesAllowed();
            RuntimeException failure = flusher.failure();
            long now = System.nanoTime();
            if (failure != null && now - deadline >= 0) {
              throw services.flushStalled(region, failure);
            }
            services.requestFlush(region);
            if (failure == null) {
              flushSignal.wait();
            } else {
              TimeUnit.NANOSECONDS.timedWait(flushSignal, Math.max(1, deadline - now));
            }
          }
          while (!region.isClosedForWork() && s.tooManyFiles() && System.nanoTime() < deadline) {
            services.checkWritesAllowed();
            services.requestCompaction(region);
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
    for (Store s : region.storeArray()) {
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
    Store[] storeArray = region.storeArray();
    List<Store> out = new ArrayList<>(storeArray.length);
    Store last = null;
    for (Cell c : cells) {
      Store s = region.storeOf(c);
      if (s != last && !out.contains(s)) {
        out.add(s);
      }
      last = s;
    }
    return out;
  }

  /** After a write: tells the engine, and asks for a flush if a store it touched reached the flush size. */
  void afterWrite(List<Cell> cells) {
    services.wrote(region);
    for (Store s : storesOf(cells)) {
      if (s.memStoreSize().footprint() >= descriptor.flushSize()) {
        flusher.requestOnce();
        return;
      }
    }
  }
}
