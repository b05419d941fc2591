package io.bellows.wire;

import io.grpc.Status;

/**
 * The kinds of error a Bellows server reports, each with its gRPC status code; the kind travels in
 * the {@code bellows-error} trailer so that a client can raise the engine's own exception type (a
 * status code alone is shared by several kinds). The table is in bellows.proto and PROTOCOL.md.
 */
public enum ErrorKind {
  TABLE_NOT_FOUND(Status.Code.NOT_FOUND),
  NO_SUCH_FAMILY(Status.Code.NOT_FOUND),
  TABLE_EXISTS(Status.Code.ALREADY_EXISTS),
  TABLE_NOT_ENABLED(Status.Code.FAILED_PRECONDITION),
  INVALID_ARGUMENT(Status.Code.INVALID_ARGUMENT),
  /** A background error stopped writes; nothing applied; may clear, so retried after a pause. */
  WRITES_STOPPED(Status.Code.UNAVAILABLE),
  /** The engine is closed: the server is stopping; nothing applied. */
  ENGINE_CLOSED(Status.Code.UNAVAILABLE),
  /** The server has too many calls in progress; nothing applied; retried after a pause. */
  THROTTLED(Status.Code.RESOURCE_EXHAUSTED),
  UNAUTHENTICATED(Status.Code.UNAUTHENTICATED),
  PERMISSION_DENIED(Status.Code.PERMISSION_DENIED),
  /**
   * A cluster's member does not lead the region (or catalog) the call needs; nothing applied. The
   * {@code bellows-leader} trailer names the leader's client address when the member knows it.
   */
  NOT_LEADER(Status.Code.UNAVAILABLE),
  /** Any other engine failure (I/O, corruption). */
  STORAGE(Status.Code.INTERNAL),
  /**
   * The call cannot be carried out in the engine's present state (a cluster's member named for a
   * leadership does not answer; a leader did not hand over in time); nothing changed.
   */
  REFUSED(Status.Code.FAILED_PRECONDITION);

  private final Status.Code code;

  ErrorKind(Status.Code code) {
    this.code = code;
  }

  public Status.Code code() {
    return code;
  }
}
