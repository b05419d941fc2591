package io.bellows.region;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The source of a region's sequence ids, handed to it by its host. Ids a region gets only grow;
 * nothing in the region relies on who else draws from the same source. Today every region of an
 * engine shares the engine's counter ({@link #of}), which its write-ahead log orders by; a region
 * with a log of its own may have a source of its own, starting from the base its metadata records.
 * A region whose log assigns the ids as it commits records ({@link RegionLog#appliesRecords}) has
 * a source that only records them ({@link #assignedByLog}).
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

  /**
   * Records {@code seqId}, assigned by the region's log to the record being applied (a log that
   * {@linkplain RegionLog#appliesRecords applies records}): it is larger than every id before, and
   * {@link #last} returns it from now on. A source that gives out ids itself refuses.
   */
  default void assigned(long seqId) {
    throw new UnsupportedOperationException("this source gives out its sequence ids itself");
  }

  /**
   * The source of a region whose log assigns the ids ({@link #assigned}), starting after {@code
   * last}; {@link #next} refuses, for the region's writers never draw an id themselves.
   */
  static SequenceIds assignedByLog(long last) {
    return new SequenceIds() {
      private volatile long assigned = last;

      @Override
      public long next() {
        throw new IllegalStateException("the region's log assigns its sequence ids");
      }

      @Override
      public long last() {
        return assigned;
      }

      @Override
      public void assigned(long seqId) {
        if (seqId <= assigned) { // applied in log order, by one thread at a time
          throw new IllegalStateException("sequence id " + seqId + " assigned after " + assigned);
        }
        assigned = seqId;
      }
    };
  }
}
