/**
 * A replicated region: the region's log over its Raft group ({@link
 * io.bellows.cluster.region.RaftRegionLog}: the leader evaluates, proposes the record with its
 * term) and the applier that puts committed records into every replica's stores ({@link
 * io.bellows.cluster.region.RegionApplier}: sequence id {@code base + index}). See
 * docs/design/cluster.md, step 2.
 */
package io.bellows.cluster.region;
