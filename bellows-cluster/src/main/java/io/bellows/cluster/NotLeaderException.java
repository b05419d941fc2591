package io.bellows.cluster;

import io.bellows.util.StorageException;

/** An append reached a replica that is not its group's leader; {@link #leader()} names the one it knows, if any. */
public final class NotLeaderException extends StorageException {
  private final String leader;

  public NotLeaderException(String group, String replica, String leader) {
    super("replica " + replica + " of group " + group + " is not its leader"
        + (leader == null ? " (no leader known yet: retry)" : "; the leader is " + leader));
    this.leader = leader;
  }

  /** The id of the leader this replica knows, or null. */
  public String leader() {
    return leader;
  }
}
