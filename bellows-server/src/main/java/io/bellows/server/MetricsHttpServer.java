package io.bellows.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The HTTP side of the server on the JDK's built-in HTTP server: {@code GET /metrics} in the
 * Prometheus text format. One thread; a scrape reads the engine's metrics, which is cheap.
 */
final class MetricsHttpServer implements AutoCloseable {
  private final HttpServer http;
  private final ExecutorService executor;

  private MetricsHttpServer(HttpServer http, ExecutorService executor) {
    this.http = http;
    this.executor = executor;
  }

  static MetricsHttpServer start(InetSocketAddress address, PrometheusRegistry registry) throws IOException {
    HttpServer http = HttpServer.create(address, 16);
    PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    http.createContext("/metrics", exchange -> {
      try (exchange) {
        if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
          send(exchange, 405, "text/plain; charset=utf-8", "only GET\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
          return;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        writer.write(body, registry.scrape());
        send(exchange, 200, writer.getContentType(), body.toByteArray());
      }
    });
    ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "bellows-http");
      t.setDaemon(true);
      return t;
    });
    http.setExecutor(executor);
    http.start();
    return new MetricsHttpServer(http, executor);
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
