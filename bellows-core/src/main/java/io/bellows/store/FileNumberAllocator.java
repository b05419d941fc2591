package io.bellows.store;

import io.bellows.util.StorageException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hands out the numbers that name sorted files ({@code <20 digits>.sst}). The engine owns one
 * counter for all its stores, so a number is unique across every store and table of a data
 * directory, and (engine instance id, file number) identifies one file's bytes for the lifetime of
 * an engine instance — the key a block cache needs. Thread-safe.
 */
public interface FileNumberAllocator {
  /** A number never handed out before by this allocator, above every number in use when it began. */
  long allocate();

  /**
   * The number {@link #allocate} would return now: every number handed out so far is below it (the
   * value a store writes into its manifest's {@code nextFileId}).
   */
  long next();

  /** An allocator over {@code counter}, which holds the next number to hand out. */
  static FileNumberAllocator over(AtomicLong counter) {
    return new FileNumberAllocator() {
      @Override
      public long allocate() {
        long n = counter.getAndIncrement();
        if (n < 1 || n == Long.MAX_VALUE) {
          counter.set(Long.MAX_VALUE);
          throw new StorageException("sorted-file numbers are exhausted (next would be " + n + ")");
        }
        return n;
      }

      @Override
      public long next() {
        return counter.get();
      }
    };
  }
}
