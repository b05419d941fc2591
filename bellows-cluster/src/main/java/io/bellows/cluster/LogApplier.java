package io.bellows.cluster;

/**
 * What a replicated log delivers to the replica it runs on: every committed entry, in log order,
 * the same entries in the same order on every replica. A region's replica applies each entry (a
 * resolved row-mutation record) to its stores.
 *
 * <p>The applier's state is also how the log gets shorter: entries whose effect is durable in the
 * applier's own files ({@link #durablePosition()}: for a region, flushed into sorted files) need
 * not be kept, and a replica that falls behind the entries its leader still holds replaces its
 * state with a checkpoint of the leader's ({@link #installCheckpoint}).
 */
public interface LogApplier {
  /**
   * Applies the committed entry at {@code at}. Indexes rise by one. After a restart the log
   * replays from the position after the last checkpoint it recorded ({@link #durablePosition()}
   * at that time), so an applier may see again entries at or below its own durable position and
   * must skip those. Runs on the group's one apply thread; must not block on the log.
   *
   * @return the reply handed to whoever appended the entry (on the leader), never null
   */
  byte[] apply(LogPosition at, byte[] entry);

  /**
   * Answers a read of the applied state (on the leader after it confirmed its leadership, or on any
   * replica for a stale read). Runs concurrently with {@link #apply}.
   */
  default byte[] query(byte[] request) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " answers no reads");
  }

  /**
   * The last applied position whose effect is durable outside the log, or null if none: the log
   * may drop the entries up to it.
   */
  default LogPosition durablePosition() {
    return null;
  }

  /**
   * The log is about to record a checkpoint at {@code at} (the {@link #durablePosition()} it was
   * just told) and drop the entries up to it: the applier makes durable whatever else it needs to
   * replay the log after {@code at} at a restart (a region: its table of answered calls). Called on
   * the group's apply thread, between entries.
   */
  default void checkpointing(LogPosition at) {}

  /**
   * This replica is behind the first entry its leader still holds: replace the state with a
   * checkpoint of the leader's (named by its node id), and return the position the state now
   * holds (the log continues after it).
   */
  default LogPosition installCheckpoint(String leader) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot install a checkpoint");
  }

  /**
   * Whether this state is never checkpointed, so that every leader holds its whole log: a replica
   * new to the group (Ratis asks each once to install a checkpoint before it sends the log) answers
   * that there is none and is sent the log from its first entry.
   */
  default boolean keepsWholeLog() {
    return false;
  }

  /**
   * The position this replica's state was seeded at before its group was added here (a replica
   * moved to this member: a checkpoint installed before it joined), or null. The log records it as
   * its checkpoint when it finds none of its own, and continues after it: the group's leader sends
   * the entries after it, never the log from its start (which, for a split's daughter, lacks the
   * parent's files).
   */
  default LogPosition seededPosition() {
    return null;
  }
}
