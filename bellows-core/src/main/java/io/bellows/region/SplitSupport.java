package io.bellows.region;

import io.bellows.store.Store;
import io.bellows.store.StoreFile;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * What a split (and a snapshot) needs from a region: blocking its writes, flushes and compactions
 * with everything flushed, a split key, links to its files for the daughters, and whether its files
 * still hold rows of another region.
 */
final class SplitSupport {
  private final Region region;
  private final RegionFlusher flusher;
  private final ReentrantReadWriteLock updatesLock;

  SplitSupport(Region region, RegionFlusher flusher, ReentrantReadWriteLock updatesLock) {
    this.region = region;
    this.flusher = flusher;
    this.updatesLock = updatesLock;
  }

  /**
   * Takes the flush lock, then the updates lock in write mode (the order a flush takes them),
   * flushes every store if {@code flushFirst}, and keeps compactions out. On failure everything is
   * released and it throws.
   */
  void block(boolean flushFirst) {
    flusher.flushLock().lock();
    updatesLock.writeLock().lock();
    Store[] storeArray = region.storeArray();
    int blocked = 0;
    try {
      if (flushFirst) {
        flusher.flushAll();
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
      flusher.flushLock().unlock();
      throw e;
    }
  }

  /** Releases what {@link #block} took and wakes writers waiting for it. */
  void unblock() {
    for (Store s : region.storeArray()) {
      s.unblockCompactions();
    }
    updatesLock.writeLock().unlock();
    flusher.flushLock().unlock();
    flusher.wake();
  }

  /** Creates a daughter region's store directories in {@code target}: hard links to this region's files. */
  void linkStoresInto(Path target) {
    for (Store s : region.storeArray()) {
      s.linkInto(target.resolve(s.family().name()));
    }
  }

  /** See {@link Region#midKey}. */
  byte[] midKey() {
    StoreFile largest = null;
    for (Store s : region.storeArray()) {
      for (StoreFile f : s.files()) {
        if (largest == null || f.size() > largest.size()) {
          largest = f;
        }
      }
    }
    if (largest == null) {
      return null;
    }
    byte[] mid = largest.midRow();
    byte[] startKey = region.startKeyRef();
    if (mid == null || Bytes.compare(mid, startKey) <= 0 || !region.containsRow(mid)) {
      return null;
    }
    return mid;
  }

  /** See {@link Region#holdsRowsOutsideRange}. */
  boolean holdsRowsOutsideRange() {
    byte[] startKey = region.startKeyRef();
    byte[] endKey = region.endKeyRef();
    for (Store s : region.storeArray()) {
      for (StoreFile f : s.files()) {
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
}
