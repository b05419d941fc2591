package io.bellows.server;

import static io.bellows.config.Knob.Scope.SERVER;

import io.bellows.config.Knob;
import java.util.List;

/**
 * The server's numeric settings as knobs of scope {@code SERVER}: each key's default, range and meaning
 * declared once, read by {@link Knob#parse} as the engine's knobs are (errors name the key and what it
 * accepts), and shown in docs/SERVER.md ({@code ServerConfigTest} keeps the two the same). The keys that
 * are addresses, files, roles or tokens are read by {@link ServerConfig} itself.
 */
final class ServerKnobs {
  private ServerKnobs() {}

  static final Knob<Integer> PORT = Knob.ofInt("port", SERVER, 7070, 0, 65535, "",
      "gRPC port; 0 picks a free one (logged).");
  static final Knob<Integer> HTTP_PORT = Knob.ofInt("http.port", SERVER, 7080, -1, 65535, "",
      "HTTP port of `/metrics` and `/status`; 0 picks a free one, -1 none.");
  static final Knob<Integer> MAX_CALLS = Knob.ofInt("max.calls", SERVER, 1024, 1, 1_000_000, "",
      "Calls in progress at most (an open scan counts until it ends); more are refused at once with `RESOURCE_EXHAUSTED` and a retry hint, nothing run.");
  static final Knob<Integer> THREADS = Knob.ofInt("threads", SERVER, 16, 1, 10_000, "",
      "Threads running calls; engine reads and writes block them (a write waits for its WAL sync and for back-pressure).");

  static final Knob<Long> CLUSTER_ELECTION_MIN_MS = Knob.ofLong("cluster.election.min.ms", SERVER, 1_000, 100, 600_000, "",
      "In a cluster, the shortest silence of a Raft group's leader after which a follower stands for election (Raft's election timeout, drawn between this and `cluster.election.max.ms`). Shorter fails over faster after a leader dies; too short, and a pause of the leader (a GC, a busy machine) costs an election. Every member should have the same.");
  static final Knob<Long> CLUSTER_ELECTION_MAX_MS = Knob.ofLong("cluster.election.max.ms", SERVER, 2_000, 200, 1_200_000, "",
      "In a cluster, the longest election timeout (see `cluster.election.min.ms`, which must be below it). A leader that no majority answered for this long steps down.");
  static final Knob<Long> CLUSTER_BALANCE_INTERVAL_MS = Knob.ofLong("cluster.balance.interval.ms", SERVER, 300_000, 0, 86_400_000, "",
      "In a cluster, how often meta's leader runs a leader-balancing pass: the members that lead the most regions hand leaderships over (Ratis' transfer, a brief pause of the region's writes) to live members of the same regions that lead at least two fewer, at most 8 per pass, until any two members lead about as many. 0: never. After a member comes back from a restart it leads nothing until a pass.");
  static final Knob<Long> CLUSTER_REPLICATION = Knob.ofLong("cluster.replication", SERVER, 3, 1, 15, "",
      "In a cluster, how many members hold each new region's replicas (a Raft group of that many voters): placed on the members holding fewest replicas. Every member when the cluster has no more. A split's daughters stay on their parent's members; `move` moves a replica to another member. Set it the same on every member (meta's leader places new tables by its own).");
  static final Knob<Long> CLUSTER_REREPLICATE_AFTER_MS = Knob.ofLong("cluster.rereplicate.after.ms", SERVER, 600_000, 0, 86_400_000, "",
      "In a cluster, how long a member may stay silent to meta's leader before its replicas are moved to live members that hold none of their regions (seeded from a checkpoint, then the region's Raft group changes members), the members holding fewest first, at most 4 moves begun every pass. 0: never. Shorter restores three copies sooner after a machine is lost; too short, and a restart or an outage of minutes copies whole regions. Needs more members than `cluster.replication`.");

  // ---- the limits (ServerLimits), in the order of the record's components
  static final Knob<Long> MAX_CONNECTIONS = Knob.ofLong("max.connections", SERVER, 256, 1, 1_000_000, "",
      "Open TCP connections at most, counted from accept (before any TLS handshake); more are closed at once. Never more than a quarter of the process's open-file limit (`ulimit -n`), so that clients cannot take the file descriptors the engine needs.");
  static final Knob<Long> MAX_CONNECTIONS_PER_ADDRESS = Knob.ofLong("max.connections.per.address", SERVER, 32, 1, 1_000_000, "",
      "Open connections from one client IP address at most; more are closed at once.");
  static final Knob<Long> MAX_STREAMS_PER_CONNECTION = Knob.ofLong("max.streams.per.connection", SERVER, 100, 1, 1_000_000, "",
      "Calls in progress on one connection at most (HTTP/2 `MAX_CONCURRENT_STREAMS`); the client queues the rest.");
  static final Knob<Long> MAX_REQUEST_BYTES = Knob.ofLong("max.request.bytes", SERVER, 16L << 20, 1 << 10, Integer.MAX_VALUE, "",
      "Largest request message (16 MiB, room for a 10 MiB value); a larger one is refused with `RESOURCE_EXHAUSTED`, nothing applied.");
  static final Knob<Long> MAX_RESPONSE_BYTES = Knob.ofLong("max.response.bytes", SERVER, 16L << 20, 1 << 10, Long.MAX_VALUE, "",
      "Most bytes of cells one `Get` or `MultiGet` answers; more is refused with `RESOURCE_EXHAUSTED` (ask for fewer rows or scan). Scans send at most 1 MiB per message.");
  static final Knob<Long> MAX_BATCH_ROWS = Knob.ofLong("max.batch.rows", SERVER, 10_000, 1, 100_000_000, "",
      "Most rows in one `Mutate`, queries in one `MultiGet`; more is refused with `RESOURCE_EXHAUSTED`, nothing applied.");
  static final Knob<Long> SCANNER_LEASE_MS = Knob.ofLong("scanner.lease.ms", SERVER, 60_000, 1, Long.MAX_VALUE / 4, "",
      "How long an open scan may wait for its client to read (its flow-control window full) before the server ends it with `ABORTED` and frees its call and its files.");
  static final Knob<Long> KEEPALIVE_MS = Knob.ofLong("keepalive.ms", SERVER, 60_000, 1_000, Long.MAX_VALUE / 4, "",
      "After this long without traffic the server pings a connection, and closes it if no answer comes in 20 s; clients may ping no more often than this.");
  static final Knob<Long> CONNECTION_IDLE_MS = Knob.ofLong("connection.idle.ms", SERVER, 600_000, 1, Long.MAX_VALUE / 4, "",
      "A connection without calls for this long is closed (gracefully: the client reconnects when it needs to).");
  static final Knob<Long> HANDSHAKE_TIMEOUT_MS = Knob.ofLong("handshake.timeout.ms", SERVER, 10_000, 1, Long.MAX_VALUE / 4, "",
      "A new connection must finish its TLS and HTTP/2 handshakes in this time, or it is closed.");
  static final Knob<Long> ADMIN_RESERVED_CALLS = Knob.ofLong("admin.reserved.calls", SERVER, 8, 0, 1_000_000, "",
      "Calls beyond `max.calls` that only Admin methods may use, so that an operator can still act when data calls (stalled scans among them) fill the server.");
  static final Knob<Long> SCAN_CHECK_ROWS = Knob.ofLong("scan.check.rows", SERVER, 64, 1, 1_000_000, "",
      "A scan or get checks its deadline and cancellation every this many rows it reads, filtered-out rows included.");
  static final Knob<Long> HTTP_THREADS = Knob.ofLong("http.threads", SERVER, 4, 1, 1_000, "",
      "Threads serving the HTTP pages.");
  static final Knob<Long> HTTP_REQUEST_TIMEOUT_MS = Knob.ofLong("http.request.timeout.ms", SERVER, 10_000, 1, Long.MAX_VALUE / 4, "",
      "An HTTP request must arrive, and its answer be sent, in this time (rounded up to seconds) or its connection is closed. One per process.");

  /** The limits, in the order of {@link ServerLimits}' components. */
  static final List<Knob<Long>> LIMITS = List.of(MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDRESS, MAX_STREAMS_PER_CONNECTION, MAX_REQUEST_BYTES, MAX_RESPONSE_BYTES, MAX_BATCH_ROWS, SCANNER_LEASE_MS, KEEPALIVE_MS, CONNECTION_IDLE_MS, HANDSHAKE_TIMEOUT_MS, ADMIN_RESERVED_CALLS, SCAN_CHECK_ROWS, HTTP_THREADS, HTTP_REQUEST_TIMEOUT_MS);

  /** The limit called {@code key}, or null. */
  static Knob<Long> limit(String key) {
    for (Knob<Long> k : LIMITS) {
      if (k.name().equals(key)) {
        return k;
      }
    }
    return null;
  }
}
