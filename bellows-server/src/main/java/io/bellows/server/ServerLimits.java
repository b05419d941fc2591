package io.bellows.server;

import io.bellows.config.Knob;
import java.util.Map;

/**
 * What one client may take from the server: connections, streams, bytes per request and response,
 * rows per batch, how long a scan or a connection may sit idle, calls kept for administrators. The
 * defaults suit a 2-core server with a 512 MiB heap; each is a key of the config file
 * ({@link ServerKnobs#LIMITS}, docs/SERVER.md "Limits"). Immutable.
 *
 * @param maxConnections open TCP connections at most (before TLS), further ones closed at accept;
 *     never more than a quarter of the process's open-file limit, so the engine keeps its files
 * @param maxConnectionsPerAddress open connections from one client address at most
 * @param maxStreamsPerConnection calls in progress on one connection at most (HTTP/2 streams)
 * @param maxRequestBytes largest request message
 * @param maxResponseBytes most bytes of cells one get or multi-get answers
 * @param maxBatchRows most rows in one mutate, queries in one multi-get
 * @param scannerLeaseMillis how long an open scan may wait for its client to read before it ends
 * @param keepaliveMillis idle time after which the server pings a connection (and the least
 *     interval at which it lets a client ping)
 * @param connectionIdleMillis a connection without calls for this long is closed
 * @param handshakeTimeoutMillis a connection must finish its TLS and HTTP/2 handshake in this time
 * @param adminReservedCalls calls beyond {@code max.calls} that only Admin methods may use
 * @param scanCheckRows a scan checks its deadline and cancellation every this many rows it reads
 * @param httpThreads threads serving the HTTP pages
 * @param httpRequestTimeoutMillis an HTTP request must arrive, and its answer leave, in this time
 */
public record ServerLimits(int maxConnections, int maxConnectionsPerAddress, int maxStreamsPerConnection,
    int maxRequestBytes, long maxResponseBytes, int maxBatchRows, long scannerLeaseMillis, long keepaliveMillis,
    long connectionIdleMillis, long handshakeTimeoutMillis, int adminReservedCalls, int scanCheckRows,
    int httpThreads, long httpRequestTimeoutMillis) {

  public static ServerLimits defaults() {
    return of(Map.of());
  }

  /** From values by key (validated by the caller: {@link ServerKnobs#LIMITS}); a key not given keeps its default. */
  static ServerLimits of(Map<String, Long> values) {
    long[] v = new long[ServerKnobs.LIMITS.size()];
    int i = 0;
    for (Knob<Long> k : ServerKnobs.LIMITS) {
      v[i++] = values.getOrDefault(k.name(), k.defaultValue());
    }
    return new ServerLimits((int) v[0], (int) v[1], (int) v[2], (int) v[3], v[4], (int) v[5], v[6], v[7], v[8], v[9],
        (int) v[10], (int) v[11], (int) v[12], v[13]);
  }
}
