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
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The HTTP side of the server on the JDK's built-in HTTP server: {@code GET /metrics} in the
 * Prometheus text format; {@code GET /status}, a page that shows the server live (tables, regions,
 * each store's accordion), polling {@code GET /status.json}. One thread; each request reads the
 * engine's metrics, which is cheap. No authentication: it listens on {@code http.bind} (loopback
 * unless configured otherwise).
 */
final class HttpEndpoints implements AutoCloseable {
  private final HttpServer http;
  private final ExecutorService executor;

  private HttpEndpoints(HttpServer http, ExecutorService executor) {
    this.http = http;
    this.executor = executor;
  }

  static HttpEndpoints start(InetSocketAddress address, PrometheusRegistry registry, Engine engine) throws IOException {
    HttpServer http = HttpServer.create(address, 16);
    PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    byte[] page;
    try (InputStream in = HttpEndpoints.class.getResourceAsStream("status.html")) {
      if (in == null) {
        throw new IOException("status.html is missing from the server's jar");
      }
      page = in.readAllBytes();
    }
    get(http, "/metrics", exchange -> {
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      writer.write(body, registry.scrape());
      send(exchange, 200, writer.getContentType(), body.toByteArray());
    });
    get(http, "/status.json", exchange -> send(exchange, 200, "application/json; charset=utf-8",
        StatusJson.render(engine, Instant.now()).getBytes(StandardCharsets.UTF_8)));
    get(http, "/status", exchange -> send(exchange, 200, "text/html; charset=utf-8", page));
    ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "bellows-http");
      t.setDaemon(true);
      return t;
    });
    http.setExecutor(executor);
    http.start();
    return new HttpEndpoints(http, executor);
  }

  private interface Handler {
    void handle(HttpExchange exchange) throws IOException;
  }

  /** A GET (and HEAD) endpoint at exactly {@code path}; anything else there is 404 or 405. */
  private static void get(HttpServer http, String path, Handler handler) {
    http.createContext(path, exchange -> {
      try (exchange) {
        if (!exchange.getRequestURI().getPath().equals(path)) {
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
