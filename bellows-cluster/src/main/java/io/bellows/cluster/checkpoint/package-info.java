/**
 * Checkpoints of a replicated region's files, for a replica left behind its leader's log: the
 * leader takes one ({@link io.bellows.cluster.checkpoint.LeaderCheckpoints}: hard links and a
 * descriptor), a {@link io.bellows.cluster.checkpoint.CheckpointSource} hands it over in checksummed
 * chunks, and the follower installs it ({@link io.bellows.cluster.checkpoint.CheckpointInstaller}:
 * staging, verification, an atomic switch). docs/design/cluster.md and docs/FORMAT.md describe it.
 */
package io.bellows.cluster.checkpoint;
