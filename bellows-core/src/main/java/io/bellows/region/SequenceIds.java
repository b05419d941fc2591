package io.bellows.region;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The source of a region's sequence ids, handed to it by its host. Ids a region gets only grow;
 * nothing in the region relies on who else draws from the same source. Today every region of an
 * engine shares the engine's counter ({@link #of}), which its write-ahead log orders by; a region
 * with a log of its own may have a source of its own, starting from the base its metadata records.
 */
public interface SequenceIds {
  /** Assigns the next sequence id: larger than every id this source gave out before. */
  long next();

  /** The largest id given out so far (every id at or below it is assigned). */
  long last();

  /** Ids drawn from {@code counter}, shared with whoever else draws from it. */
  static SequenceIds of(AtomicLong counter) {
    return new SequenceIds() {
      @Override
      public long next() {
        return counter.incrementAndGet();
      }

      @Override
      public long last() {
        return counter.get();
      }
    };
  }
}
