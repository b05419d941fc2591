package io.bellows.cluster.server;

import io.bellows.cluster.ReplicatedLog;
import io.bellows.cluster.checkpoint.LeaderCheckpoints;
import io.bellows.cluster.region.RaftRegionLog;
import io.bellows.cluster.region.RegionApplier;
import io.bellows.region.Region;
import io.bellows.schema.TableDescriptor;
import java.util.UUID;

/**
 * A member's replica of a table's region: its group, what its {@code region.txt} records, its log and
 * applier, and the checkpoints it serves.
 */
final class Replica {
  final UUID group;
  final int tableId;
  final int regionId;
  final TableDescriptor descriptor;
  final long base;
  final RaftRegionLog log;
  final RegionApplier applier;
  /** The checkpoints this replica hands to replicas behind its log. */
  final LeaderCheckpoints checkpoints;
  volatile ReplicatedLog replicated;
  /** The position of the split entry in the region's log, once this replica applied it (a split parent); else -1. */
  volatile long splitIndex = -1;
  /** The split this replica applied (a split parent: its daughters), else null. */
  volatile MetaCatalog.Split split;

  Replica(UUID group, int tableId, int regionId, TableDescriptor descriptor, long base, RaftRegionLog log,
      RegionApplier applier, LeaderCheckpoints checkpoints) {
    this.group = group;
    this.tableId = tableId;
    this.regionId = regionId;
    this.descriptor = descriptor;
    this.base = base;
    this.log = log;
    this.applier = applier;
    this.checkpoints = checkpoints;
  }

  /** The replica's region: another one after a checkpoint was installed. */
  Region region() {
    return applier.region();
  }
}
