/**
 * Regions replicated across servers: each region's log a Raft group on Apache Ratis. See
 * docs/design/cluster.md.
 *
 * <p>Today this package holds the replicated log itself: {@link io.bellows.cluster.RaftNode} (one
 * Ratis server per process, hosting many groups), {@link io.bellows.cluster.ReplicatedLog} (append
 * on the leader, delivered in log order to every replica's {@link io.bellows.cluster.LogApplier});
 * {@code io.bellows.cluster.region}: a region replicated over it.
 */
package io.bellows.cluster;
