package io.bellows.server;

import io.bellows.protocol.AdminGrpc;
import io.bellows.wire.WireErrors;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admission control: at most {@code maxCalls} calls in progress (an open scan counts until it
 * ends); one more is refused at once with RESOURCE_EXHAUSTED, a retry hint and the promise that
 * nothing ran, so that clients back off rather than pile up threads and memory in the server.
 * Calls of the Admin service may also use {@code adminReserved} slots beyond that, so that stalled
 * data calls never lock an operator out. Thread-safe.
 */
final class ThrottleInterceptor implements ServerInterceptor {
  /**
   * In a call's context: gives its slot back before the call ends, for a scan whose lease expired
   * (its stream may stay open until the client reads its end). Runs once; later runs do nothing.
   */
  static final Context.Key<Runnable> RELEASE = Context.key("bellows-call-release");

  /** The retry hint: about the time a typical call takes to make room. */
  static final long RETRY_AFTER_MS = 50;

  private final int maxCalls;
  private final int adminReserved;
  private final AtomicInteger inProgress = new AtomicInteger();

  ThrottleInterceptor(int maxCalls, int adminReserved) {
    this.maxCalls = maxCalls;
    this.adminReserved = adminReserved;
  }

  int inProgress() {
    return inProgress.get();
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    boolean admin = AdminGrpc.SERVICE_NAME.equals(call.getMethodDescriptor().getServiceName());
    if (inProgress.incrementAndGet() > maxCalls + (admin ? adminReserved : 0)) {
      inProgress.decrementAndGet();
      StatusRuntimeException s = WireErrors.throttled("server busy: " + maxCalls + " calls in progress (max.calls); retry",
          RETRY_AFTER_MS);
      call.close(s.getStatus(), s.getTrailers());
      return new ServerCall.Listener<>() {};
    }
    AtomicBoolean done = new AtomicBoolean();
    Runnable release = () -> {
      if (done.compareAndSet(false, true)) {
        inProgress.decrementAndGet();
      }
    };
    // The slot is given back when the server closes the call, before the client can see its end:
    // a client's next call must find it free (waiting for onComplete, which gRPC runs after the
    // status went out, let a sequential client meet its own finished call's slot).
    ServerCall<Q, R> releasing = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
      @Override
      public void close(Status status, Metadata trailers) {
        release.run();
        super.close(status, trailers);
      }
    };
    ServerCall.Listener<Q> listener;
    try {
      listener = Contexts.interceptCall(Context.current().withValue(RELEASE, release), releasing, headers, next);
    } catch (RuntimeException e) {
      release.run();
      throw e;
    }
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
      @Override
      public void onComplete() {
        release.run();
        super.onComplete();
      }

      @Override
      public void onCancel() {
        release.run();
        super.onCancel();
      }
    };
  }
}
