package io.bellows.server;

import io.bellows.wire.WireErrors;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admission control: at most {@code maxCalls} calls in progress (an open scan counts until it
 * ends); one more is refused at once with RESOURCE_EXHAUSTED, a retry hint and the promise that
 * nothing ran, so that clients back off rather than pile up threads and memory in the server.
 * Thread-safe.
 */
final class ThrottleInterceptor implements ServerInterceptor {
  /** The retry hint: about the time a typical call takes to make room. */
  static final long RETRY_AFTER_MS = 50;

  private final int maxCalls;
  private final AtomicInteger inProgress = new AtomicInteger();

  ThrottleInterceptor(int maxCalls) {
    this.maxCalls = maxCalls;
  }

  int inProgress() {
    return inProgress.get();
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    if (inProgress.incrementAndGet() > maxCalls) {
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
    ServerCall.Listener<Q> listener;
    try {
      listener = next.startCall(call, headers);
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
