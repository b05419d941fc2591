package io.bellows.remote;

import io.bellows.client.Bellows;
import io.bellows.config.EngineOptions;
import io.bellows.engine.LocalEngine;
import io.bellows.server.BellowsServer;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import java.nio.file.Path;

/** A server on a loopback port of its own (port 0), over an engine in a test directory. */
final class ServerFixture implements AutoCloseable {
  final LocalEngine engine;
  final BellowsServer server;

  ServerFixture(Path dir, ServerConfig config, ServerEvents events) {
    this(dir, config, events, -1);
  }

  /** With {@code httpPort} 0, /metrics on a free port. */
  ServerFixture(Path dir, ServerConfig config, ServerEvents events, int httpPort) {
    this(dir, EngineOptions.defaults(), config, events, httpPort);
  }

  ServerFixture(Path dir, EngineOptions options, ServerConfig config, ServerEvents events, int httpPort) {
    this.engine = LocalEngine.open(dir, options);
    this.server = BellowsServer.start(engine, config.withPorts(0, httpPort), events);
  }

  ServerFixture(Path dir) {
    this(dir, ServerConfig.defaults(), ServerEvents.NONE);
  }

  String target() {
    return "127.0.0.1:" + server.port();
  }

  Bellows connect(RemoteOptions options) {
    return RemoteEngine.connect(target(), options);
  }

  Bellows connect() {
    return connect(RemoteOptions.defaults());
  }

  @Override
  public void close() {
    server.close();
    engine.close();
  }
}
