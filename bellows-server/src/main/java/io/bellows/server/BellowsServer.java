package io.bellows.server;

import io.bellows.engine.Engine;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
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
 * (engine reads and writes block); one HTTP thread. Each call passes, in order, the metrics, the
 * token check ({@link AuthInterceptor}) and admission control ({@link ThrottleInterceptor}).
 *
 * <p>Without TLS and authentication it listens on loopback only, and says so in its log; asked to
 * listen elsewhere so, it refuses to start.
 */
public final class BellowsServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BellowsServer.class);
  /** Largest request message: room for a batch of puts of values up to the engine's largest (10 MiB). */
  public static final int MAX_REQUEST_BYTES = 64 << 20;

  private final Server grpc;
  private final HttpEndpoints http;
  private final ExecutorService executor;
  private final ThrottleInterceptor throttle;

  private BellowsServer(Server grpc, HttpEndpoints http, ExecutorService executor, ThrottleInterceptor throttle) {
    this.grpc = grpc;
    this.http = http;
    this.executor = executor;
    this.throttle = throttle;
  }

  /**
   * Starts serving {@code engine}. Throws {@link ServerStartException} with a message for a person
   * if a port is taken, the address is not loopback without security, or a TLS file cannot be read.
   */
  public static BellowsServer start(Engine engine, ServerConfig config, ServerEvents events) {
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
    Tables tables = new Tables(engine);
    ServerMetrics metrics = new ServerMetrics(engine);
    ThrottleInterceptor throttle = new ThrottleInterceptor(config.maxCalls());
    AuthInterceptor auth = new AuthInterceptor(config.tokens(), Clock.systemUTC());
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(address, config.port()))
        .executor(executor)
        .maxInboundMessageSize(MAX_REQUEST_BYTES)
        .addService(ServerInterceptors.intercept(new AdminService(engine, tables), throttle, auth, metrics))
        .addService(ServerInterceptors.intercept(
            new DataService(engine, tables, events, ScanCall.Limits.DEFAULT), throttle, auth, metrics));
    if (config.tls()) {
      try {
        SslContextBuilder ssl = GrpcSslContexts.forServer(config.tlsCert().toFile(), config.tlsKey().toFile());
        if (config.tlsClientCa() != null) {
          ssl.trustManager(config.tlsClientCa().toFile()).clientAuth(ClientAuth.REQUIRE);
        }
        builder.sslContext(ssl.build());
      } catch (IOException | IllegalArgumentException e) {
        executor.shutdownNow();
        throw new ServerStartException("cannot read the TLS certificate or key (" + config.tlsCert() + ", "
            + config.tlsKey() + "): " + e.getMessage(), e);
      }
    }
    Server grpc = builder.build();
    try {
      grpc.start();
    } catch (IOException e) {
      executor.shutdownNow();
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
        throw new ServerStartException("unknown http.bind address '" + config.httpBind() + "'", e);
      }
      try {
        http = HttpEndpoints.start(new InetSocketAddress(httpAddress, config.httpPort()), metrics.registry(), engine);
      } catch (IOException e) {
        grpc.shutdownNow();
        executor.shutdownNow();
        throw new ServerStartException(bindMessage("HTTP", httpAddress, config.httpPort(), e), e);
      }
    }
    BellowsServer server = new BellowsServer(grpc, http, executor, throttle);
    LOG.info("listening on {}:{} (gRPC{}), {}; {}", address.getHostAddress(), server.port(),
        http == null ? "" : ", HTTP /metrics and /status on " + config.httpBind() + ":" + http.port(), security,
        address.isLoopbackAddress() && !config.secured()
            ? "loopback only, as no TLS and authentication are configured"
            : "reachable from other hosts");
    return server;
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
    executor.shutdownNow();
  }

  @Override
  public void close() {
    stop(5_000);
  }
}
