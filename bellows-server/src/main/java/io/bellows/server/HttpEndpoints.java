package io.bellows.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import io.bellows.engine.Engine;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * The HTTP side of the server on the JDK's built-in HTTP server: {@code GET /metrics} in the
 * Prometheus text format; {@code GET /status}, a page that shows the server live (tables, regions,
 * each store's accordion), polling {@code GET /status.json}. A few threads ({@code http.threads});
 * a request must arrive and be answered within {@code http.request.timeout.ms}, so a half-sent one
 * cannot hold a thread. Each request is checked first ({@link Access}): its {@code Host} header
 * (DNS rebinding), then, when configured, its bearer token.
 */
final class HttpEndpoints implements AutoCloseable {
  /**
   * Who may read the pages: requests whose Host is an IP address, {@code localhost} or one of
   * {@code hosts}, and, if {@code tokens} is not null, that carry one of them unexpired.
   */
  record Access(List<ServerConfig.Token> tokens, Set<String> hosts) {
    static Access of(ServerConfig config) {
      Set<String> hosts = new HashSet<>(config.httpHosts());
      hosts.add("localhost");
      return new Access(config.httpNeedsToken() ? config.tokens() : null, Set.copyOf(hosts));
    }

    /** Null if the request may go on, else how to refuse it. */
    Refusal refusal(HttpExchange exchange, Instant now) {
      String host = exchange.getRequestHeaders().getFirst("Host");
      if (host == null || !hostAllowed(host)) {
        return new Refusal(421, "this server does not answer to host '" + host + "' (http.hosts)\n");
      }
      if (tokens == null) {
        return null;
      }
      String header = exchange.getRequestHeaders().getFirst("Authorization");
      if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
        return new Refusal(401, "a bearer token is needed (http.auth)\n");
      }
      byte[] hash = AuthInterceptor.sha256(header.substring(7).trim());
      boolean valid = false;
      for (ServerConfig.Token t : tokens) {
        if (MessageDigest.isEqual(hash, t.sha256()) && (t.expires() == null || now.isBefore(t.expires()))) {
          valid = true;
        }
      }
      return valid ? null : new Refusal(401, "unknown or expired bearer token\n");
    }

    private boolean hostAllowed(String hostHeader) {
      String h = hostHeader.trim().toLowerCase(Locale.ROOT);
      if (h.startsWith("[")) {
        return h.indexOf(']') > 0; // an IPv6 literal
      }
      int colon = h.lastIndexOf(':');
      if (colon >= 0) {
        h = h.substring(0, colon);
      }
      return hosts.contains(h) || IPV4.matcher(h).matches();
    }
  }

  /** An HTTP status and its message. */
  record Refusal(int code, String message) {}

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  private final HttpServer http;
  private final ExecutorService executor;

  private HttpEndpoints(HttpServer http, ExecutorService executor) {
    this.http = http;
    this.executor = executor;
  }

  static HttpEndpoints start(InetSocketAddress address, PrometheusRegistry registry, Engine engine, Access access,
      ServerLimits limits) throws IOException {
    requestTimeout(limits.httpRequestTimeoutMillis());
    HttpServer http = HttpServer.create(address, 16);
    PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    byte[] page;
    try (InputStream in = HttpEndpoints.class.getResourceAsStream("status.html")) {
      if (in == null) {
        throw new IOException("status.html is missing from the server's jar");
      }
      page = in.readAllBytes();
    }
    get(http, access, "/metrics", exchange -> {
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      writer.write(body, registry.scrape());
      send(exchange, 200, writer.getContentType(), body.toByteArray());
    });
    get(http, access, "/status.json", exchange -> send(exchange, 200, "application/json; charset=utf-8",
        StatusJson.render(engine, Instant.now()).getBytes(StandardCharsets.UTF_8)));
    get(http, access, "/status", exchange -> send(exchange, 200, "text/html; charset=utf-8", page));
    AtomicInteger threadNumber = new AtomicInteger();
    ExecutorService executor = Executors.newFixedThreadPool(limits.httpThreads(), r -> {
      Thread t = new Thread(r, "bellows-http-" + threadNumber.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    http.setExecutor(executor);
    http.start();
    return new HttpEndpoints(http, executor);
  }

  /**
   * The JDK's HTTP server reads its request and answer time limits from system properties, once per
   * process, when it is first used: set them unless the operator already did.
   */
  private static void requestTimeout(long millis) {
    String seconds = Long.toString(Math.max(1, (millis + 999) / 1000));
    for (String p : List.of("sun.net.httpserver.maxReqTime", "sun.net.httpserver.maxRspTime")) {
      if (System.getProperty(p) == null) {
        System.setProperty(p, seconds);
      }
    }
  }

  private interface Handler {
    void handle(HttpExchange exchange) throws IOException;
  }

  /** A GET (and HEAD) endpoint at exactly {@code path}; anything else there is 404 or 405. */
  private static void get(HttpServer http, Access access, String path, Handler handler) {
    http.createContext(path, exchange -> {
      try (exchange) {
        Refusal refusal = access.refusal(exchange, Instant.now());
        if (refusal != null) {
          if (refusal.code() == 401) {
            exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"bellows\"");
          }
          send(exchange, refusal.code(), "text/plain; charset=utf-8", refusal.message().getBytes(StandardCharsets.UTF_8));
        } else if (!exchange.getRequestURI().getPath().equals(path)) {
          send(exchange, 404, "text/plain; charset=utf-8", "not found\n".getBytes(StandardCharsets.UTF_8));
        } else if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
          send(exchange, 405, "text/plain; charset=utf-8", "only GET\n".getBytes(StandardCharsets.UTF_8));
        } else {
          try {
            handler.handle(exchange);
          } catch (RuntimeException e) {
            send(exchange, 503, "text/plain; charset=utf-8", (e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
          }
        }
      }
    });
  }

  private static void send(HttpExchange exchange, int code, String type, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    boolean head = "HEAD".equals(exchange.getRequestMethod());
    exchange.sendResponseHeaders(code, head ? -1 : body.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  int port() {
    return http.getAddress().getPort();
  }

  @Override
  public void close() {
    http.stop(0);
    executor.shutdownNow();
  }
}
