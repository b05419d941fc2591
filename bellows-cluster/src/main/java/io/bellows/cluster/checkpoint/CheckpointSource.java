package io.bellows.cluster.checkpoint;

import java.io.IOException;
import java.util.UUID;

/**
 * Where a replica left behind its leader's log gets a checkpoint from: the leader's member, in this
 * JVM ({@link LocalCheckpointSource}, for tests) or over the network (the server's internal
 * replication call). {@link CheckpointFetcher} copies a session's files into a staging directory.
 */
public interface CheckpointSource {
  /**
   * Asks {@code leader} (a node id) for a new checkpoint of its replica of {@code group}; the
   * caller reads it and closes the session (the leader then drops it).
   *
   * @throws IOException if the leader cannot be reached or holds no replica of the group
   */
  CheckpointSession open(UUID group, String leader) throws IOException;

  /**
   * Member {@code member}, added to the cluster after this source was made, serves checkpoints at
   * {@code clientAddress}: a source that reaches members by address learns it. Nothing by default.
   */
  default void learn(String member, String clientAddress) {}
}
