package io.bellows.cluster;

/**
 * What a replicated log delivers to the replica it runs on: every committed entry, in log order,
 * the same entries in the same order on every replica. A region's replica applies each entry (a
 * resolved row-mutation record) to its stores.
 */
public interface LogApplier {
  /**
   * Applies the committed entry at {@code index} (indexes rise by one; after a restart the log
   * replays from the oldest entry it kept, so an applier skips what it already holds durably).
   * Runs on the group's one apply thread; must not block on the log.
   *
   * @return the reply handed to whoever appended the entry (on the leader), never null
   */
  byte[] apply(long index, byte[] entry);

  /**
   * The highest index whose effect is durable outside the log (for a region: flushed to sorted
   * files), 0 if none: the log may drop its entries up to it.
   */
  default long durableIndex() {
    return 0;
  }
}
