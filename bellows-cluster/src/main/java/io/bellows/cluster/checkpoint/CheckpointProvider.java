package io.bellows.cluster.checkpoint;

import java.io.IOException;
import java.util.UUID;

/** A member's side of checkpoint transfers: a new checkpoint of its replica of a group, to be read. */
public interface CheckpointProvider {
  /**
   * Takes a checkpoint of this member's replica of {@code group} ({@link LeaderCheckpoints#open}).
   *
   * @throws IOException if it holds no replica of the group, or the checkpoint cannot be made
   */
  CheckpointSession open(UUID group) throws IOException;
}
