package io.bellows.util;

/**
 * The engine refused a call that it cannot carry out in its present state, and changed nothing:
 * a cluster's member named for a leadership that does not answer, a leader that did not hand its
 * leadership over in time. Not a failure of the engine (no stack is logged); the same call may
 * succeed once the state changes.
 */
public class RefusedException extends StorageException {
  public RefusedException(String message) {
    super(message);
  }

  public RefusedException(String message, Throwable cause) {
    super(message, cause);
  }
}
