package io.bellows.cluster.region;

import io.bellows.region.Region;
import io.bellows.store.Store;
import io.bellows.util.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clock a replica of a replicated region stamps {@code LATEST} cells with: its host's clock,
 * raised to a floor that each leadership of this replica sets when it begins (before its first
 * evaluation) to one more than the newest timestamp the region holds. A new leader whose clock lies
 * behind its predecessor's would otherwise stamp a put below an older one, which would then hide
 * it (and a delete would miss what it should hide).
 *
 * <p>Why the region's newest timestamp and once per term: a leader begins only once it has applied
 * everything committed before its term ({@link io.bellows.cluster.ReplicatedLog#awaitLeadership}),
 * so the region then holds every write any earlier leader acknowledged; reading the stores'
 * ranges (each memory segment and file keeps its newest timestamp) costs a few reads per store,
 * once per term, and nothing per write. Within a term one clock stamps every write, and a stamp
 * equal to another one's orders them by sequence id (the later wins), as on one server. The stamp
 * is evaluated once, on the leader, and travels in the record: replicas apply it as it is, so it
 * needs no agreement. A client's explicit timestamp ahead of the clock raises the floor too.
 * Thread-safe.
 */
final class StampFloor implements Clock {
  private static final Logger LOG = LoggerFactory.getLogger(StampFloor.class);
  private final Clock base;
  private volatile Region region;
  private volatile long floor = Long.MIN_VALUE;
  /** The term the floor was last raised for; -1 before the first. */
  private volatile long term = -1;

  StampFloor(Clock base) {
    this.base = base;
  }

  void region(Region r) {
    this.region = r;
  }

  @Override
  public long currentTimeMillis() {
    long now = base.currentTimeMillis();
    long f = floor;
    return now >= f ? now : f;
  }

  /** Called by each evaluation of a write in {@code leaderTerm}: the first of the term raises the floor. */
  void lead(long leaderTerm) {
    if (term == leaderTerm) {
      return;
    }
    synchronized (this) {
      Region r = region;
      if (term == leaderTerm || r == null) {
        return;
      }
      long newest = Long.MIN_VALUE;
      for (Store s : r.stores().values()) {
        newest = Math.max(newest, s.newestTimestamp());
      }
      if (newest != Long.MIN_VALUE) {
        // One more, below LATEST (Long.MAX_VALUE), which no stored cell may carry.
        floor = Math.max(floor, newest >= Long.MAX_VALUE - 2 ? Long.MAX_VALUE - 1 : newest + 1);
        long behind = floor - base.currentTimeMillis();
        if (behind > 0) {
          LOG.info("region {} of table '{}' leads in term {} with a clock {} ms behind the newest timestamp it holds:"
              + " its writes stamp from {} until the clock passes it", r.id(), r.descriptor().name(), leaderTerm, behind,
              floor);
        }
      }
      term = leaderTerm;
    }
  }

  /** The floor now (tests). */
  long floor() {
    return floor;
  }
}
