package io.bellows.cluster.region;

import io.bellows.cluster.LogApplier;
import io.bellows.cluster.LogPosition;
import io.bellows.record.WriteRecord;
import io.bellows.region.Region;
import io.bellows.region.SequenceIds;
import io.bellows.store.Store;

/**
 * A replica's applier of a replicated region: every committed entry of the region's group, in log
 * order, becomes a write of the region's stores and MVCC ({@link Region#applyCommitted}) with the
 * sequence id {@code base + index}, the same on every replica. An entry whose write was evaluated
 * in an earlier term than the one it reached the log in is applied by no replica (see {@link
 * RaftRegionLog}).
 *
 * <p>Its durable position is the last entry below the region's oldest unflushed sequence id: a
 * flush followed by {@link io.bellows.cluster.RaftNode#checkpoint} lets the log drop what the
 * files hold, and a restart replays only the log after it (the stores skip what their files hold
 * already). Installing a checkpoint of the leader's files on a replica left behind the leader's log
 * is not built yet.
 */
public final class RegionApplier implements LogApplier {
  private final Region region;
  private final long base;
  private final AppliedPositions positions = new AppliedPositions();

  private RegionApplier(Region region, long base) {
    this.region = region;
    this.base = base;
  }

  /**
   * The applier of {@code region}, just opened by its host on a {@link RaftRegionLog} and on {@code
   * ids} ({@link SequenceIds#assignedByLog} from {@code base}, the region's sequence base): what its
   * files hold becomes visible, and the log's entries apply after it.
   */
  public static RegionApplier open(Region region, SequenceIds ids, long base) {
    long flushed = base;
    for (Store s : region.stores().values()) {
      flushed = Math.max(flushed, s.flushedSeqId());
    }
    if (flushed > ids.last()) {
      ids.assigned(flushed);
    }
    region.recovered(ids.last());
    return new RegionApplier(region, base);
  }

  public Region region() {
    return region;
  }

  @Override
  public byte[] apply(LogPosition at, byte[] entry) {
    byte[] reply;
    if (RegionEntry.term(entry) != at.term()) {
      reply = RegionEntry.REJECTED;
    } else {
      WriteRecord r = RegionEntry.record(entry);
      if (r.regionId() != region.id()) {
        throw new IllegalStateException("an entry of region " + r.regionId() + " in the log of region " + region.id());
      }
      region.applyCommitted(new WriteRecord(r.regionId(), base + at.index(), r.cells()));
      reply = RegionEntry.APPLIED;
    }
    positions.handed(at);
    return reply;
  }

  /**
   * The last entry whose effect the region's files hold: every entry applied, if the memory stores
   * are empty, else the last one below their oldest sequence id. Null if no entry was applied since
   * the region opened (its files hold no more than the log's last checkpoint said).
   */
  @Override
  public LogPosition durablePosition() {
    long applied = positions.last(); // before the stores: what they hold then was applied by then
    if (applied < 0) {
      return null;
    }
    long oldest = region.oldestUnflushedSeqId();
    long durable = oldest == Long.MAX_VALUE ? applied : Math.min(applied, oldest - 1 - base);
    return positions.atOrBelow(durable);
  }

  /**
   * A read through the log is a barrier: once it returns, this replica has applied everything
   * committed before the read began, and the caller reads the region itself.
   */
  @Override
  public byte[] query(byte[] request) {
    return new byte[0];
  }

  @Override
  public LogPosition installCheckpoint(String leader) {
    throw new UnsupportedOperationException("region " + region.id() + " is behind the first entry its leader "
        + leader + " holds: installing a checkpoint of a region's files is not built yet");
  }
}
