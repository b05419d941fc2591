package io.bellows.server;

import io.bellows.cluster.checkpoint.CheckpointProvider;
import io.bellows.engine.Engine;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link Engine} served over gRPC (services Admin and Data, bellows.proto) and, on a second
 * port, {@code /metrics} and the live page {@code /status} over HTTP ({@link HttpEndpoints}). The engine belongs to the caller: {@link #close} stops serving
 * and leaves the engine open.
 *
 * <p>Threads: Netty's event loops (I/O only); a fixed pool of {@code threads} running the calls
 * (engine reads and writes block); a few HTTP threads. Connections are counted and capped at accept
 * ({@link ConnectionLimiter}). Each call passes, in order, the metrics, the token check ({@link
 * AuthInterceptor}), admission control ({@link ThrottleInterceptor}); the token check writes the audit log. Its request is parsed inside that chain ({@link RequestGuard}). The limits are
 * {@link ServerLimits}.
 *
 * <p>Without TLS and authentication it listens on loopback only, and says so in its log; asked to
 * listen elsewhere so, it refuses to start.
 */
public final class BellowsServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BellowsServer.class);
  /** How long a pinged connection has to answer before it is closed. */
  static final long KEEPALIVE_TIMEOUT_MILLIS = 20_000;

  private final Server grpc;
  private final HttpEndpoints http;
  private final ExecutorService executor;
  private final ThrottleInterceptor throttle;
  private final ConnectionLimiter connections;
  private final ScanLeases leases;
  private final EventLoopGroup[] eventLoops;

  private BellowsServer(Server grpc, HttpEndpoints http, ExecutorService executor, ThrottleInterceptor throttle,
      ConnectionLimiter connections, ScanLeases leases, EventLoopGroup[] eventLoops) {
    this.grpc = grpc;
    this.http = http;
    this.executor = executor;
    this.throttle = throttle;
    this.connections = connections;
    this.leases = leases;
    this.eventLoops = eventLoops;
  }

  /**
   * Starts serving {@code engine}. Throws {@link ServerStartException} with a message for a person
   * if a port is taken, the address is not loopback without security, or a TLS file cannot be read.
   */
  public static BellowsServer start(Engine engine, ServerConfig config, ServerEvents events) {
    return start(engine, config, events, engine instanceof CheckpointProvider p ? p : null);
  }

  /**
   * As {@link #start(Engine, ServerConfig, ServerEvents)}, also serving the members' internal
   * Replication call from {@code checkpoints} (a cluster member's replicas), if not null.
   */
  public static BellowsServer start(Engine engine, ServerConfig config, ServerEvents events,
      CheckpointProvider checkpoints) {
    InetAddress address = address(config);
    String security = config.tls()
        ? "TLS" + (config.tlsClientCa() != null ? " with client certificates" : "")
            + (config.tokens().isEmpty() ? "" : ", " + config.tokens().size() + " bearer token(s)")
        : (config.tokens().isEmpty() ? "plain text, no authentication" : "plain text, " + config.tokens().size()
            + " bearer token(s)");
    if (!config.secured() && !address.isLoopbackAddress()) {
      throw new ServerStartException("refusing to listen on " + address.getHostAddress() + " without security:"
          + " configure TLS (tls.cert, tls.key) and bearer tokens (token.NAME) or client certificates (tls.client.ca)");
    }
    AtomicInteger threadNumber = new AtomicInteger();
    ExecutorService executor = Executors.newFixedThreadPool(config.threads(), r -> {
      Thread t = new Thread(r, "bellows-call-" + threadNumber.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    ServerLimits limits = config.limits();
    Tables tables = new Tables(engine);
    ThrottleInterceptor throttle = new ThrottleInterceptor(config.maxCalls(), limits.adminReservedCalls());
    long openFiles = ConnectionLimiter.openFileLimit();
    ConnectionLimiter connections = new ConnectionLimiter(
        ConnectionLimiter.capped(limits.maxConnections(), openFiles), limits.maxConnectionsPerAddress());
    if (connections.max() < limits.maxConnections()) {
      LOG.info("at most {} connections (max.connections {}): a quarter of the open-file limit {}", connections.max(),
          limits.maxConnections(), openFiles);
    }
    ScanLeases leases = new ScanLeases(limits.scannerLeaseMillis());
    ServerMetrics metrics = new ServerMetrics(engine);
    metrics.gauges(throttle::inProgress, leases::open, leases::expired, connections::open, connections::refused);
    AuthInterceptor auth = new AuthInterceptor(config.tokens(), config.tlsClientCa() != null ? config.tlsClientRole() : null,
        Clock.systemUTC());
    // Netty's NIO transport, so that the listening channel can count and refuse connections at accept.
    EventLoopGroup boss = new NioEventLoopGroup(1, daemonThreads("bellows-accept"));
    EventLoopGroup workers = new NioEventLoopGroup(0, daemonThreads("bellows-io"));
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(address, config.port()))
        .channelFactory(connections.new ListeningChannelFactory())
        .bossEventLoopGroup(boss)
        .workerEventLoopGroup(workers)
        .executor(executor)
        .maxInboundMessageSize(limits.maxRequestBytes())
        .maxConcurrentCallsPerConnection(limits.maxStreamsPerConnection())
        .keepAliveTime(limits.keepaliveMillis(), TimeUnit.MILLISECONDS)
        .keepAliveTimeout(KEEPALIVE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
        .permitKeepAliveTime(limits.keepaliveMillis(), TimeUnit.MILLISECONDS)
        .maxConnectionIdle(limits.connectionIdleMillis(), TimeUnit.MILLISECONDS)
        .handshakeTimeout(limits.handshakeTimeoutMillis(), TimeUnit.MILLISECONDS)
        .addService(RequestGuard.wrap(ServerInterceptors.intercept(new AdminService(engine, tables), throttle, auth,
            metrics)))
        .addService(RequestGuard.wrap(ServerInterceptors.intercept(
            new DataService(engine, tables, events, ScanCall.Limits.DEFAULT, limits, leases), throttle, auth,
            metrics)));
    if (checkpoints != null) {
      builder.addService(RequestGuard.wrap(ServerInterceptors.intercept(new ReplicationService(checkpoints), throttle,
          auth, metrics)));
    }
    if (config.tls()) {
      try {
        SslContextBuilder ssl = GrpcSslContexts.forServer(config.tlsCert().toFile(), config.tlsKey().toFile());
        if (config.tlsClientCa() != null) {
          ssl.trustManager(config.tlsClientCa().toFile()).clientAuth(ClientAuth.REQUIRE);
        }
        builder.sslContext(ssl.build());
      } catch (IOException | IllegalArgumentException e) {
        executor.shutdownNow();
        shutdown(boss, workers);
        throw new ServerStartException("cannot read the TLS certificate or key (" + config.tlsCert() + ", "
            + config.tlsKey() + "): " + e.getMessage(), e);
      }
    }
    Server grpc = builder.build();
    try {
      grpc.start();
    } catch (IOException e) {
      executor.shutdownNow();
      shutdown(boss, workers);
      throw new ServerStartException(bindMessage("gRPC", address, config.port(), e), e);
    }
    HttpEndpoints http = null;
    if (config.httpPort() >= 0) {
      InetAddress httpAddress;
      try {
        httpAddress = InetAddress.getByName(config.httpBind());
      } catch (UnknownHostException e) {
        grpc.shutdownNow();
        executor.shutdownNow();
        shutdown(boss, workers);
        throw new ServerStartException("unknown http.bind address '" + config.httpBind() + "'", e);
      }
      try {
        http = HttpEndpoints.start(new InetSocketAddress(httpAddress, config.httpPort()), metrics.registry(), engine,
            HttpEndpoints.Access.of(config), limits);
      } catch (IOException e) {
        grpc.shutdownNow();
        executor.shutdownNow();
        shutdown(boss, workers);
        throw new ServerStartException(bindMessage("HTTP", httpAddress, config.httpPort(), e), e);
      }
    }
    BellowsServer server = new BellowsServer(grpc, http, executor, throttle, connections, leases,
        new EventLoopGroup[] {boss, workers});
    LOG.info("listening on {}:{} (gRPC{}), {}; {}", address.getHostAddress(), server.port(),
        http == null ? "" : ", HTTP /metrics and /status on " + config.httpBind() + ":" + http.port()
            + (config.httpNeedsToken() ? " (token needed)" : ""), security, reach(address, config));
    return server;
  }

  /** Who can reach the port, for the log: the address decides it, not the security. */
  static String reach(InetAddress address, ServerConfig config) {
    if (address.isLoopbackAddress()) {
      return config.secured() ? "loopback only" : "loopback only, as no TLS and authentication are configured";
    }
    return "reachable from other hosts";
  }

  private static DefaultThreadFactory daemonThreads(String name) {
    return new DefaultThreadFactory(name, true);
  }

  private static void shutdown(EventLoopGroup... groups) {
    for (EventLoopGroup g : groups) {
      g.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
    }
  }

  private static InetAddress address(ServerConfig config) {
    String host = config.bind() != null ? config.bind() : (config.secured() ? "0.0.0.0" : "127.0.0.1");
    try {
      return InetAddress.getByName(host);
    } catch (UnknownHostException e) {
      throw new ServerStartException("unknown bind address '" + host + "'", e);
    }
  }

  private static String bindMessage(String what, InetAddress address, int port, IOException e) {
    boolean inUse = e instanceof BindException || e.getCause() instanceof BindException
        || String.valueOf(e.getMessage()).contains("bind");
    return inUse
        ? "cannot listen on " + address.getHostAddress() + ":" + port + " (" + what + "): the port is in use"
        + " or not allowed"
        : "cannot listen on " + address.getHostAddress() + ":" + port + " (" + what + "): " + e.getMessage();
  }

  /** The gRPC port (the one picked, if the config said 0). */
  public int port() {
    return grpc.getPort();
  }

  /** The HTTP port, or -1 if there is none. */
  public int httpPort() {
    return http == null ? -1 : http.port();
  }

  /** Calls in progress now (admission control's count). */
  public int callsInProgress() {
    return throttle.inProgress();
  }

  /** Open TCP connections to the gRPC port now. */
  public int openConnections() {
    return connections.open();
  }

  /** Scans open now. */
  public int openScans() {
    return leases.open();
  }

  /** Scans ended since start because their client read nothing for {@code scanner.lease.ms}. */
  public long expiredScans() {
    return leases.expired();
  }

  /**
   * Stops taking calls, lets those in progress finish for up to {@code graceMillis}, then cancels
   * the rest (open scans among them). The engine stays open.
   */
  public void stop(long graceMillis) {
    grpc.shutdown();
    try {
      if (!grpc.awaitTermination(graceMillis, TimeUnit.MILLISECONDS)) {
        grpc.shutdownNow();
        grpc.awaitTermination(graceMillis, TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      grpc.shutdownNow();
      Thread.currentThread().interrupt();
    }
    if (http != null) {
      http.close();
    }
    leases.close();
    executor.shutdownNow();
    shutdown(eventLoops);
  }

  @Override
  public void close() {
    stop(5_000);
  }
}
