package io.bellows.wire;

import io.bellows.util.StorageException;

/**
 * A cluster's member refused a call because it does not lead the region (or catalog) the call
 * needs: nothing was applied. {@link #leaderAddress()} is the leader's client address, or null
 * while the member knows none (an election is under way).
 */
public final class NotLeaderRefusal extends StorageException {
  private final String leaderAddress;

  public NotLeaderRefusal(String message, String leaderAddress, Throwable cause) {
    super(message, cause);
    this.leaderAddress = leaderAddress;
  }

  public String leaderAddress() {
    return leaderAddress;
  }
}
