package io.bellows.server;

import io.bellows.config.EngineOptions;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 */
public record ServerConfig(String bind, int port, int httpPort, String httpBind, int maxCalls, int threads, Path tlsCert, Path tlsKey,
    Path tlsClientCa, List<Token> tokens, EngineOptions engine) {

  /** A bearer token: its name (for logs), role, SHA-256 of the secret, and an optional expiry. */
  public record Token(String name, Role role, byte[] sha256, Instant expires) {}

  /**
   * Every key with its default and meaning (Markdown), as docs/SERVER.md shows them;
   * ServerConfigTest keeps the two the same.
   */
  public static final List<String[]> KEYS = List.of(
      new String[] {"bind", "127.0.0.1 without security, 0.0.0.0 with it",
          "Address the gRPC port listens on. Without TLS and authentication (tokens or client certificates) only a loopback address is accepted."},
      new String[] {"port", "7070",
          "gRPC port; 0 picks a free one (logged)."},
      new String[] {"http.port", "7080",
          "HTTP port of `/metrics` and `/status`; 0 picks a free one, -1 none."},
      new String[] {"http.bind", "127.0.0.1",
          "Address the HTTP port listens on. Its pages have no authentication and show table names and region keys: expose them deliberately."},
      new String[] {"max.calls", "1024",
          "Calls in progress at most (an open scan counts until it ends); more are refused at once with `RESOURCE_EXHAUSTED` and a retry hint, nothing run."},
      new String[] {"threads", "16",
          "Threads running calls; engine reads and writes block them (a write waits for its WAL sync and for back-pressure)."},
      new String[] {"tls.cert", "none",
          "Server certificate chain, PEM. With `tls.key` the server speaks TLS only."},
      new String[] {"tls.key", "none",
          "Private key of `tls.cert`, PKCS#8 PEM."},
      new String[] {"tls.client.ca", "none",
          "CA certificates, PEM: clients must present a certificate signed by one of them (mutual TLS)."},
      new String[] {"token.NAME", "none",
          "A bearer token: `ROLE SHA256HEX [EXPIRES]`; ROLE one of read-only, read-write, admin; SHA256HEX the SHA-256 of the token in hex; EXPIRES an ISO-8601 instant. With any token, every call needs one."},
      new String[] {"bellows.*", "see the README's configuration table",
          "Engine knobs, e.g. `bellows.wal.max.files = 64`."});

  public static ServerConfig defaults() {
    return new ServerConfig(null, 7070, 7080, "127.0.0.1", 1024, 16, null, null, null, List.of(), EngineOptions.defaults());
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
    EngineOptions.Builder engine = EngineOptions.builder();
    for (Map.Entry<String, String> e : map.entrySet()) {
      String k = e.getKey();
      String v = e.getValue();
      switch (k) {
        case "bind" -> bind = v;
        case "port" -> port = intIn(k, v, 0, 65535);
        case "http.port" -> httpPort = intIn(k, v, -1, 65535);
        case "http.bind" -> httpBind = v;
        case "max.calls" -> maxCalls = intIn(k, v, 1, 1_000_000);
        case "threads" -> threads = intIn(k, v, 1, 10_000);
        case "tls.cert" -> cert = base.resolve(v);
        case "tls.key" -> key = base.resolve(v);
        case "tls.client.ca" -> clientCa = base.resolve(v);
        default -> {
          if (k.startsWith("token.")) {
            tokens.add(token(k.substring("token.".length()), v));
          } else if (k.startsWith("bellows.")) {
            engine.set(k, v);
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
    return new ServerConfig(bind, port, httpPort, httpBind, maxCalls, threads, cert, key, clientCa, List.copyOf(tokens),
        engine.build());
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

  private static int intIn(String key, String v, int min, int max) {
    int n;
    try {
      n = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + ": '" + v + "' is not an integer");
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException(key + ": " + n + " is not in [" + min + ", " + max + "]");
    }
    return n;
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
        maxCalls, threads, tlsCert, tlsKey, tlsClientCa, tokens, engine);
  }

  public ServerConfig withBind(String bind) {
    return new ServerConfig(bind, port, httpPort, httpBind, maxCalls, threads, tlsCert, tlsKey, tlsClientCa, tokens, engine);
  }

  public ServerConfig withMaxCalls(int maxCalls) {
    return new ServerConfig(bind, port, httpPort, httpBind, maxCalls, threads, tlsCert, tlsKey, tlsClientCa, tokens, engine);
  }

  public ServerConfig withTls(Path cert, Path key, Path clientCa) {
    return new ServerConfig(bind, port, httpPort, httpBind, maxCalls, threads, cert, key, clientCa, tokens, engine);
  }

  public ServerConfig withTokens(List<Token> tokens) {
    return new ServerConfig(bind, port, httpPort, httpBind, maxCalls, threads, tlsCert, tlsKey, tlsClientCa, List.copyOf(tokens), engine);
  }
}
