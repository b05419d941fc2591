package io.bellows.server;

import io.bellows.protocol.AdminGrpc;
import io.bellows.protocol.DataGrpc;
import io.bellows.wire.ErrorKind;
import io.bellows.wire.WireErrors;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Bearer-token authentication and role checks, before a call runs: a call without a token, with an
 * unknown or expired one, is refused with UNAUTHENTICATED; one whose token's role is below what the
 * method needs ({@link #NEEDED}) with PERMISSION_DENIED. Either way nothing runs. Tokens are kept
 * only as SHA-256 hashes and compared in constant time. Thread-safe (immutable).
 */
final class AuthInterceptor implements ServerInterceptor {
  static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
  private static final String BEARER = "Bearer ";

  /** The role each method needs; a method not listed needs {@link Role#ADMIN} (fail closed). */
  static final Map<String, Role> NEEDED = needed();

  private final List<ServerConfig.Token> tokens;
  private final Clock clock;

  AuthInterceptor(List<ServerConfig.Token> tokens, Clock clock) {
    this.tokens = List.copyOf(tokens);
    this.clock = clock;
  }

  private static Map<String, Role> needed() {
    Map<String, Role> m = new HashMap<>();
    for (MethodDescriptor<?, ?> d : List.of(AdminGrpc.getDescribeTableMethod(), AdminGrpc.getListTablesMethod(),
        AdminGrpc.getTableExistsMethod(), AdminGrpc.getIsTableEnabledMethod(), AdminGrpc.getGetTableMethod(),
        AdminGrpc.getRegionsMethod(), AdminGrpc.getGetBackgroundErrorMethod(), AdminGrpc.getMetricsMethod(),
        AdminGrpc.getGetStoreMetricsMethod(), AdminGrpc.getOptionsMethod(), DataGrpc.getGetMethod(),
        DataGrpc.getMultiGetMethod(), DataGrpc.getScanMethod())) {
      m.put(d.getFullMethodName(), Role.READ_ONLY);
    }
    for (MethodDescriptor<?, ?> d : List.of(DataGrpc.getMutateMethod(), DataGrpc.getCheckAndMutateMethod(),
        DataGrpc.getIncrementMethod(), DataGrpc.getMutateRowMethod())) {
      m.put(d.getFullMethodName(), Role.READ_WRITE);
    }
    m.put(AdminGrpc.getListSnapshotsMethod().getFullMethodName(), Role.READ_ONLY); // the snapshot calls but this: admin
    return Map.copyOf(m);
  }

  static Role needed(String fullMethodName) {
    return NEEDED.getOrDefault(fullMethodName, Role.ADMIN);
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    if (tokens.isEmpty()) {
      return next.startCall(call, headers); // no tokens configured: none asked for
    }
    String method = call.getMethodDescriptor().getFullMethodName();
    String header = headers.get(AUTHORIZATION);
    StatusRuntimeException refusal;
    if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      refusal = WireErrors.refused(ErrorKind.UNAUTHENTICATED, "no bearer token: this server needs one");
    } else {
      ServerConfig.Token token = find(header.substring(BEARER.length()).trim());
      Instant now = clock.instant();
      if (token == null) {
        refusal = WireErrors.refused(ErrorKind.UNAUTHENTICATED, "unknown bearer token");
      } else if (token.expires() != null && !now.isBefore(token.expires())) {
        refusal = WireErrors.refused(ErrorKind.UNAUTHENTICATED,
            "bearer token '" + token.name() + "' expired at " + token.expires());
      } else if (!token.role().allows(needed(method))) {
        refusal = WireErrors.refused(ErrorKind.PERMISSION_DENIED, "token '" + token.name() + "' is "
            + token.role().spelling() + "; " + call.getMethodDescriptor().getBareMethodName() + " needs "
            + needed(method).spelling());
      } else {
        return next.startCall(call, headers);
      }
    }
    call.close(refusal.getStatus(), refusal.getTrailers());
    return new ServerCall.Listener<>() {};
  }

  private ServerConfig.Token find(String secret) {
    byte[] hash = sha256(secret);
    ServerConfig.Token found = null;
    for (ServerConfig.Token t : tokens) {
      // Every token compared, each in constant time: how long this takes tells nothing.
      if (MessageDigest.isEqual(hash, t.sha256())) {
        found = t;
      }
    }
    return found;
  }

  static byte[] sha256(String secret) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }
}
