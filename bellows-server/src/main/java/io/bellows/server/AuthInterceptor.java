package io.bellows.server;

import io.bellows.protocol.AdminGrpc;
import io.bellows.protocol.DataGrpc;
import io.bellows.wire.ErrorKind;
import io.bellows.wire.WireErrors;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.StatusRuntimeException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bearer-token authentication and role checks, before a call runs: a call without a token, with an
 * unknown or expired one, is refused with UNAUTHENTICATED; one whose token's role is below what the
 * method needs ({@link #NEEDED}) with PERMISSION_DENIED. Either way nothing runs. Tokens are kept
 * only as SHA-256 hashes and compared in constant time. With mutual TLS and no tokens, a client
 * certificate gives the role {@code tls.client.role}. Calls that need the admin role, and every
 * refusal, are written to the audit log ({@link #AUDIT}) with the caller and its address.
 * Thread-safe (immutable).
 */
final class AuthInterceptor implements ServerInterceptor {
  static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
  private static final String BEARER = "Bearer ";

  /** The role each method needs; a method not listed needs {@link Role#ADMIN} (fail closed). */
  static final Map<String, Role> NEEDED = needed();

  /** Who did what to the server's tables, and who was refused: a logger of its own, to route apart. */
  static final Logger AUDIT = LoggerFactory.getLogger("bellows.audit");

  private final List<ServerConfig.Token> tokens;
  private final Role certificateRole;
  private final Clock clock;

  /**
   * @param certificateRole with mutual TLS, the role a client certificate alone gives (when no
   *     tokens are configured); null without mutual TLS
   */
  AuthInterceptor(List<ServerConfig.Token> tokens, Role certificateRole, Clock clock) {
    this.tokens = List.copyOf(tokens);
    this.certificateRole = certificateRole;
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
    m.put(AdminGrpc.getClusterStatusMethod().getFullMethodName(), Role.READ_ONLY);
    m.put(AdminGrpc.getListDecommissionedMethod().getFullMethodName(), Role.READ_ONLY);
    return Map.copyOf(m);
  }

  static Role needed(String fullMethodName) {
    return NEEDED.getOrDefault(fullMethodName, Role.ADMIN);
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    String method = call.getMethodDescriptor().getFullMethodName();
    StatusRuntimeException refusal;
    if (tokens.isEmpty()) {
      // No tokens: a client certificate (mutual TLS) gives its configured role; without either, all is open.
      String who = certificateSubject(call);
      Role role = certificateRole == null ? Role.ADMIN : certificateRole;
      if (role.allows(needed(method))) {
        return admitted(call, headers, next, who);
      }
      refusal = WireErrors.refused(ErrorKind.PERMISSION_DENIED, "client certificates are " + role.spelling()
          + " (tls.client.role); " + call.getMethodDescriptor().getBareMethodName() + " needs " + needed(method).spelling());
      return refuse(call, refusal, who);
    }
    String header = headers.get(AUTHORIZATION);
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
        return admitted(call, headers, next, "token '" + token.name() + "'");
      }
    }
    return refuse(call, refusal, "a caller");
  }

  private static <Q, R> ServerCall.Listener<Q> admitted(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next, String who) {
    if (needed(call.getMethodDescriptor().getFullMethodName()) == Role.ADMIN) {
      AUDIT.info("{} from {}: {}", who, peer(call), call.getMethodDescriptor().getBareMethodName());
    }
    return next.startCall(call, headers);
  }

  private static <Q, R> ServerCall.Listener<Q> refuse(ServerCall<Q, R> call, StatusRuntimeException refusal,
      String who) {
    AUDIT.warn("refused {} from {}: {} ({})", call.getMethodDescriptor().getBareMethodName(), peer(call),
        refusal.getStatus().getDescription(), who);
    call.close(refusal.getStatus(), refusal.getTrailers());
    return new ServerCall.Listener<>() {};
  }

  private static String peer(ServerCall<?, ?> call) {
    SocketAddress a = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
    return a instanceof InetSocketAddress i ? i.getAddress().getHostAddress() + ":" + i.getPort() : String.valueOf(a);
  }

  /** "certificate CN=..." for a client that showed one, else "an anonymous client". */
  private static String certificateSubject(ServerCall<?, ?> call) {
    SSLSession session = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
    if (session != null) {
      try {
        Certificate[] chain = session.getPeerCertificates();
        if (chain.length > 0 && chain[0] instanceof X509Certificate x) {
          return "certificate " + x.getSubjectX500Principal().getName();
        }
      } catch (SSLPeerUnverifiedException none) {
        // no client certificate
      }
    }
    return "an anonymous client";
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
