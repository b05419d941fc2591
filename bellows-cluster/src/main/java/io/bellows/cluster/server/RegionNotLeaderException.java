package io.bellows.cluster.server;

import io.bellows.util.StorageException;

/**
 * A call reached a server whose replica of the region (or of the catalog) does not lead: nothing of
 * it was applied. {@link #leaderAddress()} is the client address of the leader the replica knows,
 * or null while there is none (an election is under way: retry shortly, on any server).
 */
public final class RegionNotLeaderException extends StorageException {
  private final String leaderAddress;

  public RegionNotLeaderException(String message, String leaderAddress) {
    super(message);
    this.leaderAddress = leaderAddress;
  }

  public String leaderAddress() {
    return leaderAddress;
  }
}
