package io.bellows.remote;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link RemoteEngine} talks to its server. Immutable; {@link #defaults()} then {@code with*}.
 *
 * @param dataDeadline deadline of each data call (get, put, ...); against one server, of each attempt of it too
 * @param adminDeadline deadline of each admin call (flush, compact and split wait for the work)
 * @param scanDeadline deadline of a whole scan stream, or null for none (a scan lasts as long as its
 *     reader takes; the server still stops reading ahead when the reader does)
 * @param maxAttempts attempts of a call that fails with a retryable status, at least 1
 * @param initialBackoff pause before the first retry, doubled before each next one
 * @param maxBackoff longest pause: 1 s, about a leader election (a longer pause only delays the call)
 * @param token bearer token sent with every call, or null
 * @param trustedCa CA certificates (PEM) for TLS: null for plain text
 * @param clientCert client certificate chain (PEM) for mutual TLS, or null
 * @param clientKey its private key (PKCS#8 PEM), or null
 * @param flowControlWindow HTTP/2 receive window per stream, bytes: bounds what a server sends ahead
 *     of a slow scan reader
 * @param connections HTTP/2 connections to the server, used in turn by successive calls; one
 *     multiplexes any number of concurrent calls, more spread them over the server's I/O threads
 * @param attemptDeadline over a cluster ({@link RemoteCluster}), the deadline of one attempt of a data
 *     call at one member (within the call's {@code dataDeadline}): a member that does not answer in
 *     time (a stopped or cut-off process keeps its connection open) is left for the others at once
 *     and passed over for as long; the same call asks it again with twice as long (a slow leader,
 *     not a stopped one). 2 s: above a busy server's slow write, short next to a failover's 5 s
 *     target. Ignored against one server.
 */
public record RemoteOptions(Duration dataDeadline, Duration adminDeadline, Duration scanDeadline, int maxAttempts,
    Duration initialBackoff, Duration maxBackoff, String token, Path trustedCa, Path clientCert, Path clientKey,
    int flowControlWindow, int connections, Duration attemptDeadline) {

  public RemoteOptions {
    Objects.requireNonNull(dataDeadline, "dataDeadline");
    Objects.requireNonNull(adminDeadline, "adminDeadline");
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    Objects.requireNonNull(attemptDeadline, "attemptDeadline");
    if (attemptDeadline.isNegative() || attemptDeadline.isZero()) {
      throw new IllegalArgumentException("attemptDeadline must be positive, not " + attemptDeadline);
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, not " + maxAttempts);
    }
    if (flowControlWindow < 65_535) {
      throw new IllegalArgumentException("flowControlWindow must be at least 65535 bytes (HTTP/2's minimum)");
    }
    if (connections < 1 || connections > 64) {
      throw new IllegalArgumentException("connections must be from 1 to 64, not " + connections);
    }
    if ((clientCert == null) != (clientKey == null)) {
      throw new IllegalArgumentException("a client certificate and its key go together");
    }
  }

  public static RemoteOptions defaults() {
    return new RemoteOptions(Duration.ofSeconds(60), Duration.ofMinutes(30), null, 5, Duration.ofMillis(100),
        Duration.ofSeconds(1), null, null, null, null, 1 << 20, 1, Duration.ofSeconds(2));
  }

  public RemoteOptions withDataDeadline(Duration d) {
    return new RemoteOptions(d, adminDeadline, scanDeadline, maxAttempts, initialBackoff, maxBackoff, token, trustedCa,
        clientCert, clientKey, flowControlWindow, connections, attemptDeadline);
  }

  public RemoteOptions withScanDeadline(Duration d) {
    return new RemoteOptions(dataDeadline, adminDeadline, d, maxAttempts, initialBackoff, maxBackoff, token, trustedCa,
        clientCert, clientKey, flowControlWindow, connections, attemptDeadline);
  }

  public RemoteOptions withRetries(int attempts, Duration initial, Duration max) {
    return new RemoteOptions(dataDeadline, adminDeadline, scanDeadline, attempts, initial, max, token, trustedCa,
        clientCert, clientKey, flowControlWindow, connections, attemptDeadline);
  }

  public RemoteOptions withToken(String t) {
    return new RemoteOptions(dataDeadline, adminDeadline, scanDeadline, maxAttempts, initialBackoff, maxBackoff, t,
        trustedCa, clientCert, clientKey, flowControlWindow, connections, attemptDeadline);
  }

  /** TLS trusting {@code ca}; with a client certificate and key for mutual TLS (else both null). */
  public RemoteOptions withTls(Path ca, Path cert, Path key) {
    return new RemoteOptions(dataDeadline, adminDeadline, scanDeadline, maxAttempts, initialBackoff, maxBackoff, token,
        ca, cert, key, flowControlWindow, connections, attemptDeadline);
  }

  public RemoteOptions withFlowControlWindow(int bytes) {
    return new RemoteOptions(dataDeadline, adminDeadline, scanDeadline, maxAttempts, initialBackoff, maxBackoff, token,
        trustedCa, clientCert, clientKey, bytes, connections, attemptDeadline);
  }

  /** Over a cluster: the deadline of one attempt at one member (see {@link RemoteOptions}). */
  public RemoteOptions withAttemptDeadline(Duration d) {
    return new RemoteOptions(dataDeadline, adminDeadline, scanDeadline, maxAttempts, initialBackoff, maxBackoff, token,
        trustedCa, clientCert, clientKey, flowControlWindow, connections, d);
  }

  public RemoteOptions withConnections(int n) {
    return new RemoteOptions(dataDeadline, adminDeadline, scanDeadline, maxAttempts, initialBackoff, maxBackoff, token,
        trustedCa, clientCert, clientKey, flowControlWindow, n, attemptDeadline);
  }
}
