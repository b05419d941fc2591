package io.bellows.wire;

import io.bellows.util.StorageException;
import io.grpc.Status;

/**
 * A remote call that failed for a reason the engine's own exceptions do not name: the server could
 * not be reached, the deadline passed, the call was cancelled, the token was refused, the server
 * was too busy. {@link #code()} is the gRPC status code.
 */
public class RemoteCallException extends StorageException {
  private final Status.Code code;

  public RemoteCallException(Status.Code code, String message, Throwable cause) {
    super(message, cause);
    this.code = code;
  }

  public Status.Code code() {
    return code;
  }
}
