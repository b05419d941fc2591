package io.bellows.server;

import io.bellows.wire.ErrorKind;
import io.bellows.wire.WireErrors;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.StatusRuntimeException;

/**
 * Parses each request inside the service's call chain rather than in gRPC's transport code, so that
 * a request that cannot be parsed (protobuf refuses messages nested more than 100 deep, a filter in
 * a filter ...) is answered INVALID_ARGUMENT with nothing run, not UNKNOWN. Stateless.
 */
final class RequestGuard implements ServerInterceptor {
  private RequestGuard() {}

  static ServerServiceDefinition wrap(ServerServiceDefinition service) {
    return ServerInterceptors.intercept(ServerInterceptors.useInputStreamMessages(service), new RequestGuard());
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(call, headers)) {
      private boolean refused;

      @Override
      public void onMessage(Q message) {
        if (refused) {
          return;
        }
        try {
          super.onMessage(message); // parses the request
        } catch (RuntimeException e) {
          refused = true;
          Throwable cause = e.getCause() != null ? e.getCause() : e;
          StatusRuntimeException s = WireErrors.refused(ErrorKind.INVALID_ARGUMENT,
              "the request cannot be parsed: " + cause.getMessage());
          call.close(s.getStatus(), s.getTrailers());
        }
      }

      @Override
      public void onHalfClose() {
        if (!refused) {
          super.onHalfClose();
        }
      }
    };
  }
}
