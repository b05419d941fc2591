package io.bellows.cluster.region;

import io.bellows.region.Region;
import io.bellows.store.Store;
import io.bellows.util.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clock a replica of a replicated region stamps {@code LATEST} cells with: its host's clock,
 * moved ahead, when this replica begins to lead, by as much as it lies behind the newest timestamp
 * the region holds (plus one), so the leadership's first stamp is above every stamp before it. A
 * new leader whose clock lies behind its predecessor's would otherwise stamp a put below an older
 * one, which would then hide it (and a delete would miss what it should hide).
 *
 * <p>Why the region's newest timestamp, once per term: a leader begins only once it has applied
 * everything committed before its term ({@link io.bellows.cluster.ReplicatedLog#awaitLeadership}),
 * so the region then holds every write an earlier leader acknowledged; reading the stores' ranges
 * (each memory segment and file keeps its newest timestamp) costs a few reads per store, once per
 * term, and nothing per write. Why a shift rather than a floor: the stamps keep moving with the
 * clock, so a column's versions written a minute apart stay a minute apart instead of sharing the
 * floor until the clock catches up. The stamp is evaluated once, on the leader, and travels in the
 * record: replicas apply it as it is. The shift is the region's clock for everything (TTLs
 * included) and stays until this replica leads again; a client's explicit timestamp ahead of the
 * clock moves it too. Thread-safe.
 */
final class LeaderClock implements Clock {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderClock.class);

  private final Clock base;
  private volatile Region region;
  /** Milliseconds added to the host's clock: 0, or what the last leadership's start found missing. */
  private volatile long shift;
  /** The term the shift was last set for; -1 before the first. */
  private volatile long term = -1;

  LeaderClock(Clock base) {
    this.base = base;
  }

  void region(Region r) {
    this.region = r;
  }

  @Override
  public long currentTimeMillis() {
    long now = base.currentTimeMillis();
    long s = shift;
    return s == 0 ? now : saturated(now, s);
  }

  private static long saturated(long now, long s) {
    long t = now + s;
    return t < now || t >= Long.MAX_VALUE ? Long.MAX_VALUE - 1 : t; // below LATEST, which no stored cell carries
  }

  /** Called by each evaluation of a write in {@code leaderTerm}: the first of the term sets the shift. */
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
      long now = base.currentTimeMillis();
      long behind = newest == Long.MIN_VALUE || newest < now ? 0 : newest - now + 1;
      shift = behind;
      if (behind > 0) {
        LOG.info("region {} of table '{}' leads in term {} with a clock {} ms behind the newest timestamp it holds:"
            + " its writes stamp {} ms ahead of this member's clock", r.id(), r.descriptor().name(), leaderTerm, behind,
            behind);
      }
      term = leaderTerm;
    }
  }
}
