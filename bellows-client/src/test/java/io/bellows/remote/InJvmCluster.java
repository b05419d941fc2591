package io.bellows.remote;

import io.bellows.cluster.RaftSettings;
import io.bellows.cluster.server.Members;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.config.EngineOptions;
import io.bellows.server.BellowsServer;
import io.bellows.server.GrpcCheckpointSource;
import io.bellows.server.ServerConfig;
import io.bellows.server.ServerEvents;
import io.bellows.testing.FreePorts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * Three cluster members in one JVM, each a {@link ReplicatedEngine} served by a {@link
 * BellowsServer} on 127.0.0.1 (as {@code bellows server --cluster} serves it), on directories of
 * their own; a member can be stopped (its server, then its engine) and started again on its
 * directory.
 */
final class InJvmCluster implements AutoCloseable {
  static final long WAIT_MS = 60_000;

  /** A member: its engine and the server over it. */
  record Member(String id, String clientAddress, ReplicatedEngine engine, BellowsServer server) {}

  private final Path dir;
  /** The member file as the members started from now on read it: a member added later is in it. */
  private Members members;
  private final Map<String, Member> live = new LinkedHashMap<>();
  /** How many members hold each new region's replicas, and when a silent member's move. */
  private final ReplicatedEngine.Replication replication;
  /** Where members fetch checkpoints from one another (over their servers), one per member that runs. */
  private final Map<String, GrpcCheckpointSource> checkpoints = new LinkedHashMap<>();

  InJvmCluster(Path dir) throws IOException {
    this(dir, EngineOptions.defaults());
  }

  /** With {@code options} for every member's engine (a test's manual clock among them). */
  InJvmCluster(Path dir, EngineOptions options) throws IOException {
    this(dir, options, 3, ReplicatedEngine.Replication.DEFAULTS);
  }

  /** Of {@code count} members, placing and repairing replicas as {@code replication} says. */
  InJvmCluster(Path dir, EngineOptions options, int count, ReplicatedEngine.Replication replication)
      throws IOException {
    this.dir = dir;
    this.replication = replication;
    StringBuilder text = new StringBuilder();
    for (int i = 1; i <= count; i++) {
      text.append("m").append(i).append(" 127.0.0.1:").append(FreePorts.next()).append(" 127.0.0.1:").append(FreePorts.next())
          .append('\n');
    }
    this.members = Members.parse(text.toString(), "the test's member file");
    for (Members.Member m : members.list()) {
      start(m.id(), options);
    }
  }

  /** Starts member {@code id} (stopped, or never started) on its directory, on its ports. */
  Member start(String id, EngineOptions options) {
    if (live.containsKey(id)) {
      throw new IllegalStateException("member " + id + " runs already");
    }
    Members.Member m = members.member(id);
    GrpcCheckpointSource source = GrpcCheckpointSource.of(members, ServerConfig.defaults());
    ReplicatedEngine engine = ReplicatedEngine.open(dir.resolve(m.id()), options, members, m.id(), null, source, null,
        RaftSettings.DEFAULT_ELECTION_MIN, RaftSettings.DEFAULT_ELECTION_MAX, ReplicatedEngine.DEFAULT_BALANCE_INTERVAL,
        replication);
    BellowsServer server;
    try {
      server = BellowsServer.start(engine, ServerConfig.defaults().withPorts(m.clientPort(), -1), ServerEvents.NONE);
    } catch (RuntimeException e) {
      engine.close();
      source.close();
      throw e;
    }
    checkpoints.put(m.id(), source);
    Member started = new Member(m.id(), m.clientAddress(), engine, server);
    live.put(m.id(), started);
    return started;
  }

  /**
   * A new member {@code id} on fresh ports, added to the member file (marked added) that members
   * started from now on read, as an operator adds its line before starting it; not started.
   */
  Members.Member addToFile(String id) {
    return addToFile(id, true);
  }

  /** As {@link #addToFile(String)}, marked added or (a mistake) not. */
  Members.Member addToFile(String id, boolean added) {
    Members.Member m = new Members.Member(id, "127.0.0.1:" + FreePorts.next(), "127.0.0.1:" + FreePorts.next(), added);
    members = members.with(m);
    return m;
  }

  /** Polls {@code done} until it holds, failing once {@link #WAIT_MS} pass: the members' background work (moves, removals). */
  static void await(String what, java.util.function.BooleanSupplier done) throws InterruptedException {
    long end = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
    while (!done.getAsBoolean()) {
      if (System.nanoTime() - end > 0) {
        throw new AssertionError(what + ": not within " + WAIT_MS + " ms");
      }
      Thread.sleep(50); // polling the members' progress, not synchronizing
    }
  }

  /**
   * Waits until member {@code e}'s replica of {@code group} has applied everything committed before
   * the wait began: a linearizable read of it (on a follower, the read index asked of the leader),
   * asked again while it fails (the replica not yet in the group, or not applied within Ratis' read
   * timeout).
   */
  static void awaitCaughtUp(ReplicatedEngine e, java.util.UUID group, String what) throws InterruptedException {
    await("member " + e.id() + " catching up on " + what, () -> {
      try {
        e.node().log(group).read(new byte[0]).join();
        return true;
      } catch (RuntimeException notYet) {
        return false;
      }
    });
  }

  /** Every member's id, stopped ones included. */
  List<String> ids() {
    return members.list().stream().map(Members.Member::id).toList();
  }

  /** The members running now. */
  List<Member> live() {
    return List.copyOf(live.values());
  }

  /** Every member's client address, stopped ones included. */
  List<String> addresses() {
    return members.list().stream().map(Members.Member::clientAddress).toList();
  }

  Member member(String id) {
    return live.get(id);
  }

  /** The member that leads the table's region, as member {@code asked} has learnt it, once there is one. */
  Member leaderOf(String table, String asked) throws InterruptedException, TimeoutException {
    ReplicatedEngine e = live.get(asked).engine();
    return live.get(e.node().awaitLeader(e.group(table), WAIT_MS));
  }

  /** The live members other than {@code id}. */
  List<Member> others(String id) {
    List<Member> out = new ArrayList<>();
    live.values().forEach(m -> {
      if (!m.id().equals(id)) {
        out.add(m);
      }
    });
    return out;
  }

  /** Stops a member: its server stops taking calls, then its engine closes (flushed; its node stops voting). */
  void stop(String id) {
    Member m = live.remove(id);
    m.server().close();
    m.engine().close();
    GrpcCheckpointSource source = checkpoints.remove(id);
    if (source != null) {
      source.close();
    }
  }


  @Override
  public void close() {
    for (String id : List.copyOf(live.keySet())) {
      stop(id);
    }
  }
}
