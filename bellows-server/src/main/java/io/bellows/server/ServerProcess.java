package io.bellows.server;

import io.bellows.engine.LocalEngine;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code bellows server} process: opens the engine on the data directory, serves it, and at
 * SIGTERM or SIGINT stops taking calls, lets those in progress finish (up to {@link #GRACE_MILLIS}),
 * flushes and closes the engine and returns 0. A port in use, a data directory locked by another
 * engine or a bad configuration is reported in one line and returns 2.
 */
public final class ServerProcess {
  private static final Logger LOG = LoggerFactory.getLogger(ServerProcess.class);
  /** How long calls in progress may go on after a stop signal before they are cancelled. */
  public static final long GRACE_MILLIS = 10_000;

  private final Path data;
  private final ServerConfig config;
  private final PrintWriter err;
  private final CountDownLatch stop = new CountDownLatch(1);

  public ServerProcess(Path data, ServerConfig config, PrintWriter err) {
    this.data = data;
    this.config = config;
    this.err = err;
  }

  /** Asks a running {@link #run} to stop, as a signal does. */
  public void requestStop() {
    stop.countDown();
  }

  /** Runs until a stop signal; returns the exit status. */
  public int run() {
    if (Files.exists(data) && !Files.isDirectory(data)) {
      err.println("ERROR: cannot open " + data.toAbsolutePath() + ": not a directory");
      err.flush();
      return 2;
    }
    LocalEngine engine;
    try {
      engine = LocalEngine.open(data, config.engine());
    } catch (RuntimeException e) {
      String reason = e.getCause() != null && String.valueOf(e.getMessage()).startsWith("cannot open ")
          ? String.valueOf(e.getCause().getMessage()) : String.valueOf(e.getMessage());
      err.println("ERROR: cannot open " + data.toAbsolutePath() + ": " + reason);
      err.flush();
      return 2;
    }
    BellowsServer server;
    try {
      server = BellowsServer.start(engine, config, ServerEvents.NONE);
    } catch (ServerStartException e) {
      engine.close();
      err.println("ERROR: " + e.getMessage());
      err.flush();
      return 2;
    }
    if (!Signals.onTermination(this::requestStop)) {
      Runtime.getRuntime().addShutdownHook(new Thread(() -> shutdown(server, engine), "bellows-server-stop"));
    }
    try {
      stop.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    shutdown(server, engine);
    return 0;
  }

  private synchronized void shutdown(BellowsServer server, LocalEngine engine) {
    LOG.info("stopping: no new calls; calls in progress get up to {} ms", GRACE_MILLIS);
    server.stop(GRACE_MILLIS);
    LOG.info("flushing and closing the engine");
    engine.close();
    LOG.info("stopped");
  }
}
