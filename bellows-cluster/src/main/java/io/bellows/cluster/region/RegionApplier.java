package io.bellows.cluster.region;

import io.bellows.cluster.LogApplier;
import io.bellows.cluster.LogPosition;
import io.bellows.cluster.checkpoint.CheckpointInstaller;
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
 * already). A replica left behind the leader's log installs a checkpoint of the leader's files
 * ({@link #installCheckpoint}).
 */
public final class RegionApplier implements LogApplier {
  /** Replaced, with the positions, when a checkpoint is installed (never while an entry is applied). */
  private volatile Region region;
  private final long base;
  private volatile AppliedPositions positions = new AppliedPositions();
  private final SequenceIds ids;
  /** Null: this replica cannot install a checkpoint (it refuses, and stays behind). */
  private final CheckpointInstaller installer;

  private RegionApplier(Region region, SequenceIds ids, long base, CheckpointInstaller installer) {
    this.region = region;
    this.ids = ids;
    this.base = base;
    this.installer = installer;
  }

  /**
   * The applier of {@code region}, just opened by its host on a {@link RaftRegionLog} and on {@code
   * ids} ({@link SequenceIds#assignedByLog} from {@code base}, the region's sequence base): what its
   * files hold becomes visible, and the log's entries apply after it.
   */
  public static RegionApplier open(Region region, SequenceIds ids, long base) {
    return open(region, ids, base, null);
  }

  /**
   * As {@link #open(Region, SequenceIds, long)}, for a replica that installs a checkpoint of its
   * leader's files with {@code installer} when it falls behind the leader's log.
   */
  public static RegionApplier open(Region region, SequenceIds ids, long base, CheckpointInstaller installer) {
    startAtFiles(region, ids, base);
    return new RegionApplier(region, ids, base, installer);
  }

  /** The region's ids and read point start at the highest id its files hold: the log applies after it. */
  private static void startAtFiles(Region region, SequenceIds ids, long base) {
    long flushed = base;
    for (Store s : region.stores().values()) {
      flushed = Math.max(flushed, s.flushedSeqId());
    }
    if (flushed > ids.last()) {
      ids.assigned(flushed);
    }
    region.recovered(ids.last());
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

  /**
   * Replaces this replica's region with a checkpoint of the leader's ({@link CheckpointInstaller}:
   * fetched, verified, switched atomically) and reopens it: the sequence ids and read point start
   * at the highest id the installed files hold, and the log continues after the checkpoint's
   * position, which this returns. Ratis calls it while nothing is applied here.
   */
  @Override
  public LogPosition installCheckpoint(String leader) {
    if (installer == null) {
      throw new UnsupportedOperationException("region " + region.id() + " is behind the first entry its leader "
          + leader + " holds, and this replica was opened without a checkpoint installer");
    }
    CheckpointInstaller.Installed installed = installer.install(leader, region);
    startAtFiles(installed.region(), ids, base);
    positions = new AppliedPositions(); // the entries handed before the install say nothing of its files
    region = installed.region();
    return installed.position();
  }
}
