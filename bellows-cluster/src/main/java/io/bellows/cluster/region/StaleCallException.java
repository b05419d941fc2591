package io.bellows.cluster.region;

import io.bellows.engine.CallId;
import io.bellows.util.StorageException;

/**
 * A write named a call that lies below the lowest call its client said it still waits for, and
 * that the region no longer remembers: a retry the client had given up on (its deadline passed).
 * Nothing of it was applied now; whether its first sending applied, the region no longer knows.
 */
public final class StaleCallException extends StorageException {
  public StaleCallException(CallId call) {
    super(call + " lies below the lowest call the client still waits for and is no longer remembered:"
        + " a retry the client gave up on; nothing was applied now");
  }
}
