package io.bellows.server;

import io.bellows.config.EngineOptions;
import io.bellows.config.Knob;
import io.bellows.config.KnobAssignments;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The server's settings, read from a properties file ({@code --config FILE}); every key is listed
 * in {@link #KEYS} with its default and meaning, and docs/SERVER.md shows the same table. Keys
 * starting with {@code bellows.} are engine knobs (the README's configuration table). Immutable.
 *
 * @param bind address to listen on; null: loopback without security, every interface with it
 * @param port gRPC port (0: any free port)
 * @param httpPort metrics port (0: any free port, -1: none)
 * @param httpBind address the HTTP port listens on
 * @param maxCalls calls in progress at most; more are refused with RESOURCE_EXHAUSTED
 * @param threads threads running calls
 * @param tlsCert server certificate chain (PEM), or null for plain text
 * @param tlsKey the certificate's private key (PKCS#8 PEM)
 * @param tlsClientCa CA (PEM) that client certificates must be signed by (mutual TLS), or null
 * @param tokens bearer tokens; empty: no token asked for
 * @param engine engine knobs
 * @param limits what one client may take (connections, bytes, rows, idle times)
 * @param httpAuth whether the HTTP pages need a bearer token; null: when tokens are configured
 * @param httpHosts host names the HTTP pages answer to besides IP addresses and localhost
 * @param tlsClientRole the role of a client proven by its certificate alone (mutual TLS, no token)
 * @param cluster how a cluster member calls the other members (cluster.token, cluster.tls.ca)
 */
public record ServerConfig(String bind, int port, int httpPort, String httpBind, int maxCalls, int threads, Path tlsCert, Path tlsKey,
    Path tlsClientCa, List<Token> tokens, EngineOptions engine, ServerLimits limits, Boolean httpAuth,
    List<String> httpHosts, Role tlsClientRole, ClusterAccess cluster) {

  /**
   * How a cluster member deals with the other members: the bearer token it presents when it calls
   * them (the internal replication call; null: none; it needs the admin role there), the CA (PEM)
   * it trusts their certificates by (null: plain text; with mutual TLS it shows its own {@code
   * tls.cert}), and how long a group's leader may be silent before an election (Raft's election
   * timeouts, drawn between the two), and how often meta's leader balances the regions' leaders
   * (zero: never).
   */
  public record ClusterAccess(String token, Path tlsCa, Duration electionMin, Duration electionMax,
      Duration balanceInterval, int replication, Duration rereplicateAfter) {
    public static final ClusterAccess NONE = new ClusterAccess(null, null);

    /** With the default election timeouts. */
    public ClusterAccess(String token, Path tlsCa) {
      this(token, tlsCa, Duration.ofMillis(ServerKnobs.CLUSTER_ELECTION_MIN_MS.defaultValue()),
          Duration.ofMillis(ServerKnobs.CLUSTER_ELECTION_MAX_MS.defaultValue()),
          Duration.ofMillis(ServerKnobs.CLUSTER_BALANCE_INTERVAL_MS.defaultValue()),
          ServerKnobs.CLUSTER_REPLICATION.defaultValue().intValue(),
          Duration.ofMillis(ServerKnobs.CLUSTER_REREPLICATE_AFTER_MS.defaultValue()));
    }

    public ClusterAccess {
      if (electionMin.compareTo(electionMax) >= 0) {
        throw new IllegalArgumentException("cluster.election.min.ms (" + electionMin.toMillis()
            + ") must be below cluster.election.max.ms (" + electionMax.toMillis() + ")");
      }
    }

    /** The same, with the election timeouts {@code min} and {@code max}. */
    public ClusterAccess withElectionTimeouts(Duration min, Duration max) {
      return new ClusterAccess(token, tlsCa, min, max, balanceInterval, replication, rereplicateAfter);
    }

    @Override
    public String toString() {
      return "ClusterAccess[token=" + (token == null ? "none" : "(secret)") + ", tlsCa=" + tlsCa + ", elections after "
          + electionMin.toMillis() + "-" + electionMax.toMillis() + " ms, balancing every " + balanceInterval.toMillis()
          + " ms, " + replication + " replicas per region, moved after " + rereplicateAfter.toMillis() + " ms of silence]";
    }
  }

  /** A bearer token: its name (for logs), role, SHA-256 of the secret, and an optional expiry. */
  public record Token(String name, Role role, byte[] sha256, Instant expires) {}

  /**
   * Every key with its default and meaning (Markdown), as docs/SERVER.md shows them;
   * ServerConfigTest keeps the two the same.
   */
  public static final List<String[]> KEYS = List.of(
      new String[] {"bind", "127.0.0.1 without security, 0.0.0.0 with it",
          "Address the gRPC port listens on. Without TLS and authentication (tokens or client certificates) only a loopback address is accepted."},
      row(ServerKnobs.PORT),
      row(ServerKnobs.HTTP_PORT),
      new String[] {"http.bind", "127.0.0.1",
          "Address the HTTP port listens on. Its pages show table names and region keys (row keys): expose them deliberately, with `http.auth`."},
      new String[] {"http.auth", "true when tokens are configured, else false",
          "Whether `/metrics` and `/status` need a bearer token (any role) in an `Authorization` header; without one they answer 401."},
      new String[] {"http.hosts", "none",
          "Comma-separated host names the HTTP pages answer to, besides IP addresses and `localhost`; another `Host` header gets 421 (a defence against DNS rebinding)."},
      row(ServerKnobs.MAX_CALLS),
      row(ServerKnobs.THREADS),
      new String[] {"tls.cert", "none",
          "Server certificate chain, PEM. With `tls.key` the server speaks TLS only."},
      new String[] {"tls.key", "none",
          "Private key of `tls.cert`, PKCS#8 PEM."},
      new String[] {"tls.client.ca", "none",
          "CA certificates, PEM: clients must present a certificate signed by one of them (mutual TLS)."},
      new String[] {"tls.client.role", "read-only",
          "With mutual TLS and no tokens, the role every client certificate gets: read-only, read-write or admin."},
      new String[] {"token.NAME", "none",
          "A bearer token: `ROLE SHA256HEX [EXPIRES]`; ROLE one of read-only, read-write, admin; SHA256HEX the SHA-256 of the token in hex; EXPIRES an ISO-8601 instant. With any token, every call needs one."},
      new String[] {"cluster.token", "none",
          "In a cluster, the bearer token this member presents to the other members when it fetches a checkpoint from one (the internal `Replication` call needs the admin role there). The token itself, not its hash: keep the file private."},
      new String[] {"cluster.tls.ca", "none",
          "In a cluster, the CA certificates (PEM) the other members' certificates must be signed by. With `tls.cert` and `tls.key` the member's Raft port speaks mutual TLS only (it shows its `tls.cert`, a member's certificate must allow server and client authentication), as do its checkpoint fetches; a member with some of the three and not all refuses to start. Without them its Raft traffic is plain text and unauthenticated."},
      row(ServerKnobs.CLUSTER_ELECTION_MIN_MS),
      row(ServerKnobs.CLUSTER_ELECTION_MAX_MS),
      row(ServerKnobs.CLUSTER_BALANCE_INTERVAL_MS),
      row(ServerKnobs.CLUSTER_REPLICATION),
      row(ServerKnobs.CLUSTER_REREPLICATE_AFTER_MS),
      new String[] {"bellows.*", "see the README's configuration table",
          "Engine knobs, e.g. `bellows.wal.max.files = 64`."});

  /** The limits' keys, defaults and meanings (Markdown), as docs/SERVER.md's "Limits" table shows them. */
  public static final List<String[]> LIMIT_KEYS = ServerKnobs.LIMITS.stream().map(ServerConfig::row).toList();

  /** A knob's row of the tables of docs/SERVER.md: key, default, meaning. */
  private static String[] row(Knob<?> k) {
    return new String[] {k.name(), String.valueOf(k.defaultValue()), k.meaning()};
  }

  public static ServerConfig defaults() {
    return new ServerConfig(null, ServerKnobs.PORT.defaultValue(), ServerKnobs.HTTP_PORT.defaultValue(), "127.0.0.1",
        ServerKnobs.MAX_CALLS.defaultValue(), ServerKnobs.THREADS.defaultValue(), null, null, null, List.of(),
        EngineOptions.defaults(),
        ServerLimits.defaults(), null, List.of(), Role.READ_ONLY, ClusterAccess.NONE);
  }

  /** Reads a config file; unknown keys and bad values are errors naming the key. */
  public static ServerConfig read(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    }
    Map<String, String> map = new TreeMap<>();
    p.stringPropertyNames().forEach(k -> map.put(k, p.getProperty(k).trim()));
    Path base = file.toAbsolutePath().getParent();
    return parse(map, base);
  }

  static ServerConfig parse(Map<String, String> map, Path base) {
    ServerConfig d = defaults();
    String bind = d.bind();
    int port = d.port();
    int httpPort = d.httpPort();
    String httpBind = d.httpBind();
    int maxCalls = d.maxCalls();
    int threads = d.threads();
    Path cert = null;
    Path key = null;
    Path clientCa = null;
    List<Token> tokens = new ArrayList<>();
    Map<String, String> engineKnobs = new TreeMap<>();
    Map<String, Long> limits = new TreeMap<>();
    Boolean httpAuth = null;
    List<String> httpHosts = List.of();
    Role clientRole = d.tlsClientRole();
    String clusterToken = null;
    Path clusterCa = null;
    long electionMin = ServerKnobs.CLUSTER_ELECTION_MIN_MS.defaultValue();
    long electionMax = ServerKnobs.CLUSTER_ELECTION_MAX_MS.defaultValue();
    long balanceInterval = ServerKnobs.CLUSTER_BALANCE_INTERVAL_MS.defaultValue();
    long replication = ServerKnobs.CLUSTER_REPLICATION.defaultValue();
    long rereplicateAfter = ServerKnobs.CLUSTER_REREPLICATE_AFTER_MS.defaultValue();
    for (Map.Entry<String, String> e : map.entrySet()) {
      String k = e.getKey();
      String v = e.getValue();
      switch (k) {
        case "bind" -> bind = v;
        case "port" -> port = ServerKnobs.PORT.parse(v);
        case "http.port" -> httpPort = ServerKnobs.HTTP_PORT.parse(v);
        case "http.bind" -> httpBind = v;
        case "max.calls" -> maxCalls = ServerKnobs.MAX_CALLS.parse(v);
        case "threads" -> threads = ServerKnobs.THREADS.parse(v);
        case "tls.cert" -> cert = base.resolve(v);
        case "tls.key" -> key = base.resolve(v);
        case "tls.client.ca" -> clientCa = base.resolve(v);
        case "tls.client.role" -> clientRole = Role.parse(v);
        case "http.auth" -> httpAuth = bool(k, v);
        case "http.hosts" -> httpHosts = List.of(v.toLowerCase(Locale.ROOT).split("\\s*,\\s*"));
        case "cluster.token" -> clusterToken = v.isEmpty() ? null : v;
        case "cluster.tls.ca" -> clusterCa = base.resolve(v);
        case "cluster.election.min.ms" -> electionMin = ServerKnobs.CLUSTER_ELECTION_MIN_MS.parse(v);
        case "cluster.election.max.ms" -> electionMax = ServerKnobs.CLUSTER_ELECTION_MAX_MS.parse(v);
        case "cluster.balance.interval.ms" -> balanceInterval = ServerKnobs.CLUSTER_BALANCE_INTERVAL_MS.parse(v);
        case "cluster.replication" -> replication = ServerKnobs.CLUSTER_REPLICATION.parse(v);
        case "cluster.rereplicate.after.ms" -> rereplicateAfter = ServerKnobs.CLUSTER_REREPLICATE_AFTER_MS.parse(v);
        default -> {
          if (ServerKnobs.limit(k) != null) {
            limits.put(k, ServerKnobs.limit(k).parse(v));
          } else if (k.startsWith("token.")) {
            tokens.add(token(k.substring("token.".length()), v));
          } else if (k.startsWith("bellows.")) {
            engineKnobs.put(k, v);
          } else {
            throw new IllegalArgumentException("unknown server setting '" + k + "'");
          }
        }
      }
    }
    if ((cert == null) != (key == null)) {
      throw new IllegalArgumentException("tls.cert and tls.key go together");
    }
    if (clientCa != null && cert == null) {
      throw new IllegalArgumentException("tls.client.ca needs tls.cert and tls.key");
    }
    ServerLimits l = ServerLimits.of(limits);
    return new ServerConfig(bind, port, httpPort, httpBind, maxCalls, threads, cert, key, clientCa, List.copyOf(tokens),
        engineOptions(EngineOptions.defaults(), KnobAssignments.of(engineKnobs)), l, httpAuth, httpHosts, clientRole,
        new ClusterAccess(clusterToken, clusterCa, Duration.ofMillis(electionMin), Duration.ofMillis(electionMax),
            Duration.ofMillis(balanceInterval), (int) replication, Duration.ofMillis(rereplicateAfter)));
  }

  private static boolean bool(String key, String v) {
    return switch (v.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException(key + ": '" + v + "' is not true or false");
    };
  }

  private static Token token(String name, String v) {
    String[] parts = v.split("\\s+");
    if (name.isEmpty() || parts.length < 2 || parts.length > 3) {
      throw new IllegalArgumentException("token." + name + ": expected 'ROLE SHA256HEX [EXPIRES]'");
    }
    Role role = Role.parse(parts[0]);
    byte[] hash;
    try {
      hash = HexFormat.of().parseHex(parts[1].toLowerCase(Locale.ROOT));
    } catch (IllegalArgumentException bad) {
      hash = new byte[0];
    }
    if (hash.length != 32) {
      throw new IllegalArgumentException("token." + name + ": the hash must be 64 hex digits (SHA-256 of the token)");
    }
    Instant expires = null;
    if (parts.length == 3) {
      try {
        expires = Instant.parse(parts[2]);
      } catch (DateTimeParseException bad) {
        throw new IllegalArgumentException("token." + name + ": expiry '" + parts[2] + "' is not an ISO-8601 instant");
      }
    }
    return new Token(name, role, hash, expires);
  }

  public boolean tls() {
    return tlsCert != null;
  }

  /** Whether clients must prove who they are: tokens, or certificates (mutual TLS). */
  public boolean authenticates() {
    return !tokens.isEmpty() || tlsClientCa != null;
  }

  /** Secure enough to listen beyond loopback: TLS, and tokens or client certificates. */
  public boolean secured() {
    return tls() && authenticates();
  }

  public ServerConfig withPorts(Integer port, Integer httpPort) {
    return new ServerConfig(bind, port == null ? this.port : port, httpPort == null ? this.httpPort : httpPort, httpBind,
        maxCalls, threads, tlsCert, tlsKey, tlsClientCa, tokens, engine, limits, httpAuth, httpHosts, tlsClientRole, cluster);
  }

  /** This config with engine knobs set over the file's (as {@code bellows server --set} gives them). */
  public ServerConfig withEngineSettings(KnobAssignments settings) {
    return new ServerConfig(bind, port, httpPort, httpBind, maxCalls, threads, tlsCert, tlsKey, tlsClientCa, tokens,
        engineOptions(engine, settings), limits, httpAuth, httpHosts, tlsClientRole, cluster);
  }

  /** Engine knobs only: a server's tables and families take theirs from create and alter. */
  private static EngineOptions engineOptions(EngineOptions base, KnobAssignments settings) {
    return settings.requireScopes("a server takes engine knobs; set table and family knobs with create and alter",
        Knob.Scope.ENGINE).applyTo(base.toBuilder()).build();
  }

  public ServerConfig withBind(String bind) {
    return new ServerConfig(bind, port, httpPort, httpBind, maxCalls, threads, tlsCert, tlsKey, tlsClientCa, tokens, engine, limits, httpAuth, httpHosts, tlsClientRole, cluster);
  }

  public ServerConfig withMaxCalls(int maxCalls) {
    return new ServerConfig(bind, port, httpPort, httpBind, maxCalls, threads, tlsCert, tlsKey, tlsClientCa, tokens, engine, limits, httpAuth, httpHosts, tlsClientRole, cluster);
  }

  public ServerConfig withTls(Path cert, Path key, Path clientCa) {
    return new ServerConfig(bind, port, httpPort, httpBind, maxCalls, threads, cert, key, clientCa, tokens, engine, limits, httpAuth, httpHosts, tlsClientRole, cluster);
  }

  public ServerConfig withTokens(List<Token> tokens) {
    return new ServerConfig(bind, port, httpPort, httpBind, maxCalls, threads, tlsCert, tlsKey, tlsClientCa, List.copyOf(tokens), engine, limits, httpAuth,
        httpHosts, tlsClientRole, cluster);
  }

  public ServerConfig withLimits(ServerLimits limits) {
    return new ServerConfig(bind, port, httpPort, httpBind, maxCalls, threads, tlsCert, tlsKey, tlsClientCa, tokens, engine,
        limits, httpAuth, httpHosts, tlsClientRole, cluster);
  }

  /** Changes some limits by their config keys (as a config file would). */
  public ServerConfig withLimits(Map<String, Long> values) {
    Map<String, Long> all = new TreeMap<>();
    List<String> keys = ServerKnobs.LIMITS.stream().map(Knob::name).toList();
    Object[] current = {limits.maxConnections(), limits.maxConnectionsPerAddress(), limits.maxStreamsPerConnection(),
        limits.maxRequestBytes(), limits.maxResponseBytes(), limits.maxBatchRows(), limits.scannerLeaseMillis(),
        limits.keepaliveMillis(), limits.connectionIdleMillis(), limits.handshakeTimeoutMillis(),
        limits.adminReservedCalls(), limits.scanCheckRows(), limits.httpThreads(), limits.httpRequestTimeoutMillis()};
    for (int i = 0; i < keys.size(); i++) {
      all.put(keys.get(i), ((Number) current[i]).longValue());
    }
    values.forEach((k, v) -> {
      Knob<Long> knob = ServerKnobs.limit(k);
      if (knob == null) {
        throw new IllegalArgumentException("unknown limit '" + k + "'");
      }
      all.put(k, knob.validate(v));
    });
    return withLimits(ServerLimits.of(all));
  }

  public ServerConfig withHttp(Boolean auth, List<String> hosts) {
    return new ServerConfig(bind, port, httpPort, httpBind, maxCalls, threads, tlsCert, tlsKey, tlsClientCa, tokens, engine,
        limits, auth, List.copyOf(hosts), tlsClientRole, cluster);
  }

  public ServerConfig withTlsClientRole(Role role) {
    return new ServerConfig(bind, port, httpPort, httpBind, maxCalls, threads, tlsCert, tlsKey, tlsClientCa, tokens, engine,
        limits, httpAuth, httpHosts, role, cluster);
  }

  public ServerConfig withClusterAccess(ClusterAccess access) {
    return new ServerConfig(bind, port, httpPort, httpBind, maxCalls, threads, tlsCert, tlsKey, tlsClientCa, tokens, engine,
        limits, httpAuth, httpHosts, tlsClientRole, access);
  }

  /** Whether the HTTP pages ask for a token: as configured, else when there are tokens. */
  public boolean httpNeedsToken() {
    return httpAuth != null ? httpAuth : !tokens.isEmpty();
  }
}
