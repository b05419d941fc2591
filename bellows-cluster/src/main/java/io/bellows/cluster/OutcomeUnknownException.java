package io.bellows.cluster;

import io.bellows.util.StorageException;

/**
 * An append reached the leader, which then stopped leading before the entry was committed: the
 * next leader may commit it or not. The caller cannot tell; a retry must be one the applier can
 * recognise as a repeat.
 */
public final class OutcomeUnknownException extends StorageException {
  public OutcomeUnknownException(String message, Throwable cause) {
    super(message, cause);
  }
}
