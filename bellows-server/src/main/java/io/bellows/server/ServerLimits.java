package io.bellows.server;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one client may take from the server: connections, streams, bytes per request and response,
 * rows per batch, how long a scan or a connection may sit idle, calls kept for administrators. The
 * defaults suit a 2-core server with a 512 MiB heap; each is a key of the config file
 * ({@link ServerConfig#KEYS}, docs/SERVER.md "Limits"). Immutable.
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

  /** Keys, each with its default, least and most value, in the order of the record's components. */
  static final Map<String, long[]> KEYS = keys();

  private static Map<String, long[]> keys() {
    Map<String, long[]> m = new LinkedHashMap<>();
    m.put("max.connections", new long[] {256, 1, 1_000_000});
    m.put("max.connections.per.address", new long[] {32, 1, 1_000_000});
    m.put("max.streams.per.connection", new long[] {100, 1, 1_000_000});
    m.put("max.request.bytes", new long[] {16 << 20, 1 << 10, Integer.MAX_VALUE});
    m.put("max.response.bytes", new long[] {16 << 20, 1 << 10, Long.MAX_VALUE});
    m.put("max.batch.rows", new long[] {10_000, 1, 100_000_000});
    m.put("scanner.lease.ms", new long[] {60_000, 1, Long.MAX_VALUE / 4});
    m.put("keepalive.ms", new long[] {60_000, 1_000, Long.MAX_VALUE / 4});
    m.put("connection.idle.ms", new long[] {600_000, 1, Long.MAX_VALUE / 4});
    m.put("handshake.timeout.ms", new long[] {10_000, 1, Long.MAX_VALUE / 4});
    m.put("admin.reserved.calls", new long[] {8, 0, 1_000_000});
    m.put("scan.check.rows", new long[] {64, 1, 1_000_000});
    m.put("http.threads", new long[] {4, 1, 1_000});
    m.put("http.request.timeout.ms", new long[] {10_000, 1, Long.MAX_VALUE / 4});
    return Collections.unmodifiableMap(m);
  }

  public static ServerLimits defaults() {
    return of(Map.of());
  }

  /** From values by key (validated by the caller against {@link #KEYS}); a key not given keeps its default. */
  static ServerLimits of(Map<String, Long> values) {
    long[] v = new long[KEYS.size()];
    int i = 0;
    for (Map.Entry<String, long[]> k : KEYS.entrySet()) {
      v[i++] = values.getOrDefault(k.getKey(), k.getValue()[0]);
    }
    return new ServerLimits((int) v[0], (int) v[1], (int) v[2], (int) v[3], v[4], (int) v[5], v[6], v[7], v[8], v[9],
        (int) v[10], (int) v[11], (int) v[12], v[13]);
  }
}
