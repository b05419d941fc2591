package io.bellows.server;

import io.bellows.cluster.RaftTls;
import io.bellows.cluster.server.Members;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.cluster.server.TestFaultFile;
import io.bellows.engine.Engine;
import io.bellows.engine.LocalEngine;
import java.io.IOException;
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
  /** The member file, or null: a single server. */
  private final Path cluster;
  /** This server's member id, or null: the member whose client port is the configured port. */
  private final String memberId;
  /** TEST ONLY: the file of injected faults ({@code --test-faults}), or null: always in production. */
  private final Path testFaults;

  public ServerProcess(Path data, ServerConfig config, PrintWriter err) {
    this(data, config, err, null, null);
  }

  /**
   * A member of the cluster that {@code cluster} (a member file, see {@link Members}) lists, or a
   * single server if it is null. The member is {@code memberId}, or else the one whose client port
   * is the configured port; it listens on its member's client port.
   */
  public ServerProcess(Path data, ServerConfig config, PrintWriter err, Path cluster, String memberId) {
    this(data, config, err, cluster, memberId, null);
  }

  /**
   * TEST ONLY: a member that also takes the faults a test's nemesis writes to {@code testFaults}
   * ({@link TestFaultFile}: partitions of the Raft transport, stale reads), unless it is null.
   */
  public ServerProcess(Path data, ServerConfig config, PrintWriter err, Path cluster, String memberId,
      Path testFaults) {
    if (testFaults != null && cluster == null) {
      throw new IllegalArgumentException("test faults are for a member of a cluster");
    }
    this.data = data;
    this.config = config;
    this.err = err;
    this.cluster = cluster;
    this.memberId = memberId;
    this.testFaults = testFaults;
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
    if (cluster != null) {
      return runMember();
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
    return serve(engine, config);
  }

  /** Opens this member's share of the cluster and serves it. */
  private int runMember() {
    Members members;
    try {
      members = Members.read(cluster);
    } catch (IOException e) {
      err.println("ERROR: cannot read the member file " + cluster + ": " + e.getMessage());
      err.flush();
      return 2;
    } catch (IllegalArgumentException e) {
      err.println("ERROR: " + e.getMessage());
      err.flush();
      return 2;
    }
    Members.Member self;
    try {
      self = memberId != null ? members.member(memberId) : members.list().stream()
          .filter(m -> m.clientPort() == config.port()).findFirst().orElseThrow(() -> new IllegalArgumentException(
              "no member of " + cluster + " has the client port " + config.port() + ": name this server's member with --id"));
    } catch (IllegalArgumentException e) {
      err.println("ERROR: " + e.getMessage());
      err.flush();
      return 2;
    }
    RaftTls raftTls;
    try {
      raftTls = RaftTls.forMember(config.tlsCert(), config.tlsKey(), config.cluster().tlsCa());
    } catch (IllegalArgumentException e) {
      err.println("ERROR: " + e.getMessage());
      err.flush();
      return 2;
    }
    if (raftTls == null) {
      LOG.warn("member {}: Raft traffic on {} is plain text and unauthenticated (no tls.cert, tls.key, cluster.tls.ca): "
          + "keep that port on a trusted network", self.id(), self.raftAddress());
    }
    ReplicatedEngine engine;
    // A replica behind its leader's log fetches a checkpoint from the leader's member over its client port.
    GrpcCheckpointSource checkpoints = GrpcCheckpointSource.of(members, config);
    try {
      engine = ReplicatedEngine.open(data, config.engine(), members, self.id(),
          testFaults == null ? null : TestFaultFile.watch(testFaults), checkpoints, raftTls,
          config.cluster().electionMin(), config.cluster().electionMax(), config.cluster().balanceInterval(),
          new ReplicatedEngine.Replication(config.cluster().replication(), config.cluster().rereplicateAfter()));
    } catch (RuntimeException e) {
      checkpoints.close();
      err.println("ERROR: cannot start member " + self.id() + " on " + data.toAbsolutePath() + ": " + e.getMessage());
      err.flush();
      return 2;
    }
    LOG.info("member {} of {}: Raft on {} ({}, elections after {}-{} ms of silence), clients on {}", self.id(), cluster,
        self.raftAddress(), raftTls == null ? "plain text" : "mutual TLS", config.cluster().electionMin().toMillis(),
        config.cluster().electionMax().toMillis(), self.clientAddress());
    try {
      return serve(engine, config.withPorts(self.clientPort(), null));
    } finally {
      checkpoints.close();
    }
  }

  private int serve(Engine engine, ServerConfig config) {
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

  private synchronized void shutdown(BellowsServer server, Engine engine) {
    LOG.info("stopping: no new calls; calls in progress get up to {} ms", GRACE_MILLIS);
    server.stop(GRACE_MILLIS);
    LOG.info("flushing and closing the engine");
    engine.close();
    LOG.info("stopped");
  }
}
