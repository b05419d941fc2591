package io.bellows.cluster.region;

import io.bellows.util.StorageException;

/**
 * A write evaluated by one leadership of its region reached the log in a later one (the replica
 * stopped leading and led again in between): it may have missed another leader's writes, so no
 * replica applied it. Nothing of it happened; a retry evaluates it again.
 */
public final class StaleLeadershipException extends StorageException {
  public StaleLeadershipException(String message) {
    super(message);
  }
}
