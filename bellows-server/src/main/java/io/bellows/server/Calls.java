package io.bellows.server;

import io.bellows.cluster.OutcomeUnknownException;
import io.bellows.cluster.server.RegionNotLeaderException;
import io.bellows.wire.ErrorKind;
import io.bellows.wire.WireErrors;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs the body of a unary call and answers with its result or its error as a status. Stateless. */
final class Calls {
  private static final Logger LOG = LoggerFactory.getLogger(Calls.class);

  private Calls() {}

  static <T> void unary(StreamObserver<T> response, Supplier<T> body) {
    Context context = Context.current();
    if (context.isCancelled()) {
      // The deadline passed or the client gave up while the call waited for a thread: do nothing.
      response.onError(cancelled(context));
      return;
    }
    T result;
    try {
      result = body.get();
    } catch (RuntimeException e) {
      response.onError(toStatus(e));
      return;
    }
    response.onNext(result);
    response.onCompleted();
  }

  /** DEADLINE_EXCEEDED if the call's deadline passed, else CANCELLED (the client gave up). */
  static StatusRuntimeException cancelled(Context context) {
    boolean late = context.getDeadline() != null && context.getDeadline().isExpired();
    return (late ? Status.DEADLINE_EXCEEDED : Status.CANCELLED)
        .withDescription("the call was " + (late ? "past its deadline" : "cancelled") + " before it ran; nothing applied")
        .withCause(context.cancellationCause())
        .asRuntimeException();
  }

  /** DEADLINE_EXCEEDED or CANCELLED for a read that was running when its deadline passed or its client gave up. */
  static StatusRuntimeException ended(Context context) {
    boolean late = context.getDeadline() != null && context.getDeadline().isExpired();
    return (late ? Status.DEADLINE_EXCEEDED : Status.CANCELLED)
        .withDescription(late ? "the read passed its deadline" : "the read was cancelled")
        .withCause(context.cancellationCause())
        .asRuntimeException();
  }

  /** The status for an engine exception; failures that are not the caller's are logged. */
  static StatusRuntimeException toStatus(Throwable e) {
    if (e instanceof RegionNotLeaderException nl) {
      return WireErrors.notLeader(nl.getMessage(), nl.leaderAddress());
    }
    if (e instanceof OutcomeUnknownException) {
      // As a connection lost in flight: no kind, no promise that nothing applied.
      return Status.UNAVAILABLE.withDescription(e.getMessage()).asRuntimeException();
    }
    StatusRuntimeException s = WireErrors.toStatus(e);
    if (ErrorKind.STORAGE.name().equals(s.getTrailers() == null ? null : s.getTrailers().get(WireErrors.KIND))) {
      LOG.warn("call failed: {}", e.toString(), e);
    }
    return s;
  }
}
