package io.bellows.region;

import io.bellows.store.Store;
import io.bellows.util.StorageException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Flushes of a region's memory stores to sorted files, and what writers blocked on back-pressure
 * wait on: the flush signal (notified when a flush or compaction ends or the region's state
 * changes) and the last flush's failure.
 */
final class RegionFlusher {
  private final Region region;
  private final RegionServices services;
  private final RegionLog log;
  private final SequenceIds sequenceIds;
  private final ReentrantReadWriteLock updatesLock;
  private final ReentrantLock flushLock = new ReentrantLock();
  private final Object flushSignal = new Object();
  private final AtomicBoolean flushRequested = new AtomicBoolean();
  /** Why the last flush failed; null once one succeeds. Bounds how long blocked writers wait. */
  private volatile RuntimeException flushFailure;

  RegionFlusher(Region region, RegionServices services, ReentrantReadWriteLock updatesLock) {
    this.region = region;
    this.services = services;
    this.log = services.log();
    this.sequenceIds = services.sequenceIds();
    this.updatesLock = updatesLock;
  }

  /** Held by a flush; a split or snapshot takes it before the updates lock, as a flush does. */
  ReentrantLock flushLock() {
    return flushLock;
  }

  /** What writers blocked on back-pressure wait on. */
  Object signal() {
    return flushSignal;
  }

  /** Why the last flush failed, or null if it succeeded. */
  RuntimeException failure() {
    return flushFailure;
  }

  /** Wakes writers waiting on back-pressure so they look again. */
  void wake() {
    synchronized (flushSignal) {
      flushSignal.notifyAll();
    }
  }

  /** Asks the engine for a background flush, once until a flush starts. */
  void requestOnce() {
    if (flushRequested.compareAndSet(false, true)) {
      services.requestFlush(region);
    }
  }

  /** See {@link Region#flush}. */
  long flush(boolean all) {
    flushLock.lock();
    try {
      flushRequested.set(false);
      if (region.isClosedForWork()) {
        return Region.NOTHING_FLUSHED; // closed while this waited (a split or a disable flushed it first)
      }
      List<Store> prepared = new ArrayList<>();
      updatesLock.writeLock().lock();
      try {
        boolean wholeRegion = all;
        if (!all && region.settings().flushPolicy() == io.bellows.config.FlushPolicy.REGION) {
          for (Store s : region.stores().values()) {
            wholeRegion |= wantsFlush(s);
          }
        }
        // Under the write lock every sequence id assigned so far is in the memory stores (or was
        // dropped there as redundant): each snapshot covers the region's edits up to this one.
        long upTo = sequenceIds.last();
        for (Store s : region.stores().values()) {
          if ((wholeRegion || wantsFlush(s)) && s.prepareFlush(upTo)) {
            prepared.add(s);
          }
        }
      } finally {
        updatesLock.writeLock().unlock();
      }
      try {
        if (!prepared.isEmpty() && log != null) {
          // Everything logged before the snapshot, in every region sharing the log, becomes durable
          // before the snapshot's files do: what survives a power loss stays a prefix of the log.
          log.forceAppended();
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
        return Region.NOTHING_FLUSHED;
      }
      for (Store s : prepared) {
        if (!s.selectMinor().isEmpty()) {
          services.requestCompaction(region);
          break;
        }
      }
      return region.oldestUnflushedSeqId();
    } finally {
      flushLock.unlock();
      wake();
    }
  }

  /**
   * Flushes until no store holds data in memory, for the callers that rely on every edit being in
   * sorted files afterwards (a split, a snapshot, an alter, a close). One flush may not be enough:
   * after a flush failed, a store first writes that failed flush's snapshot, and what came into its
   * memory since stays there. Throws if data is still in memory after three rounds (a writer got in:
   * the caller did not hold the updates lock) rather than let the caller drop it.
   */
  void flushAll() {
    for (int round = 1; ; round++) {
      flush(true);
      if (!anyStoreHoldsCells()) {
        return;
      }
      if (round == 3) {
        throw new StorageException("region " + region.id() + " of table '" + region.descriptor().name()
            + "' still holds data in memory after flushing three times");
      }
    }
  }

  private boolean anyStoreHoldsCells() {
    for (Store s : region.storeArray()) {
      if (s.memStoreSize().cellCount() > 0) {
        return true;
      }
    }
    return false;
  }

  /** Whether a store's memory store has reached the flush size, or blocks writers. */
  private boolean wantsFlush(Store s) {
    return s.memStoreSize().footprint() >= region.descriptor().flushSize() || s.flushBlocked(1.0);
  }
}
