package io.bellows.remote;

import io.bellows.atomic.Condition;
import io.bellows.cell.Cell;
import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.cluster.ReplicatedLog;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.config.EngineOptions;
import io.bellows.engine.EngineUnderTest;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.util.Bytes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * The replicated configuration of the engine suites ({@code EngineModelTest}, {@code
 * MetamorphicTest}): three members in one JVM ({@link InJvmCluster}: each a {@link
 * ReplicatedEngine} served by a {@code BellowsServer} on 127.0.0.1), and the suite's handle a
 * {@link RemoteCluster} over their servers.
 *
 * <p>Why through {@link RemoteCluster} rather than calls on the leader's engine: it takes the whole
 * path a client's call takes — the wire, the NOT_LEADER routing after each restart and election,
 * and the call ids every write carries, so the leader runs them through the region's table of
 * answered calls ({@code RaftRegionLog.answerOnce}) as a server does; on the leader's engine
 * directly, none of that would run. Each member is still reachable in the JVM, for what a client
 * cannot ask: the barrier before the replicas are compared (a linearizable read of each member's
 * replica, which a follower answers once it applied everything committed before it) and each
 * replica's own cells ({@link ReplicatedEngine#scanStale}) and clock.
 *
 * <p>What the cluster does not have is left out of the suites: splits (one region per table; the
 * table is not pre-split) and major compactions (refused by {@link ReplicatedEngine#majorCompact}).
 * Not thread-safe: one test thread drives it.
 */
final class ClusterUnderTest implements EngineUnderTest {
  /** A row no suite writes: a failing check on it sets a new leader's clock, writing nothing ({@link #reopen}). */
  private static final byte[] CLOCK_ROW = Bytes.of("~clock");
  private static final RemoteOptions CLIENT = RemoteOptions.defaults()
      .withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500));

  /** What the suite's "close + reopen" restarts. */
  enum Restart {
    /**
     * Every member, then all three open again on their directories: each replays its log after its
     * checkpoint and a new leader is elected, whose clock may move ahead of the host's ({@link
     * #now} follows it). For suites that follow the engine's clock (the model test).
     */
    ALL,
    /**
     * The followers of every table's region, one after the other (each catches up from the log);
     * the leader stays, in its term, with its clock. For suites whose reference stamps by the
     * host's clock alone (the metamorphic test's single engine).
     */
    FOLLOWERS
  }

  private final Path dir;
  private final Restart restart;
  private InJvmCluster cluster;

  ClusterUnderTest(Path dir, Restart restart) {
    this.dir = dir;
    this.restart = restart;
  }

  @Override
  public Bellows open(EngineOptions options) {
    if (cluster == null) {
      try {
        cluster = new InJvmCluster(dir, options);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return Bellows.over(RemoteCluster.open(cluster.addresses(), CLIENT));
  }

  @Override
  public Bellows reopen(Bellows db, EngineOptions options) {
    List<String> tables = db.listTables();
    db.close();
    if (restart == Restart.ALL) {
      for (InJvmCluster.Member m : cluster.live()) {
        cluster.stop(m.id());
      }
      for (String id : cluster.ids()) {
        cluster.start(id, options);
      }
    } else {
      for (String table : tables) {
        String leader = leader(table).id();
        for (String id : cluster.ids()) {
          if (!id.equals(leader)) {
            cluster.stop(id);
            cluster.start(id, options);
          }
        }
      }
    }
    Bellows again = open(options);
    if (restart == Restart.ALL) {
      // A check that fails writes nothing but is evaluated by the new leader, whose first evaluation
      // of its term sets its clock (LeaderClock): from here on now() reads the clock the leader
      // stamps with, also for a first write of the term that the suite's model computes in advance.
      for (String table : tables) {
        byte[] family = again.describeTable(table).families().get(0).nameBytes();
        boolean applied = again.getTable(table).checkAndMutate(Condition.ifEquals(family, CLOCK_ROW, Bytes.of("never")),
            new Put(CLOCK_ROW).addColumn(family, CLOCK_ROW, Bytes.of("never")));
        if (applied) {
          throw new AssertionError("a check of an absent column against a value applied");
        }
      }
    }
    return again;
  }

  /** The clock of the replica that leads the (one) table's region; the suite's before a table exists. */
  @Override
  public long now(long suiteClock) {
    ReplicatedEngine any = cluster.live().get(0).engine();
    List<String> tables = any.listTables();
    if (tables.isEmpty()) {
      return suiteClock;
    }
    String table = tables.get(0);
    return leader(table).engine().currentTimeMillis(table);
  }

  @Override
  public boolean splits() {
    return false;
  }

  @Override
  public boolean majorCompactions() {
    return false;
  }

  /**
   * Each member's replica once it has applied everything committed before this call (a
   * linearizable read of the replica: on a follower, the leader's commit index asked and waited
   * for), read on that replica alone at its own clock.
   */
  @Override
  public List<ReplicaCells> replicas(String table) {
    List<ReplicaCells> out = new ArrayList<>();
    for (InJvmCluster.Member m : cluster.live()) {
      ReplicatedEngine e = m.engine();
      ReplicatedLog log = e.node().log(e.group(table));
      try {
        e.node().awaitLeader(e.group(table), InJvmCluster.WAIT_MS); // a member just restarted learns it first
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while member " + m.id() + " waited for a leader", ie);
      } catch (TimeoutException te) {
        throw new IllegalStateException("member " + m.id() + " knows no leader of table " + table, te);
      }
      log.read(new byte[0]).join();
      List<List<Cell>> rows = new ArrayList<>();
      try (RowScanner s = e.scanStale(e.table(table), ScanQuery.builder().maxVersions(Integer.MAX_VALUE).build())) {
        List<Cell> row = new ArrayList<>();
        while (s.nextRow(row)) {
          rows.add(row);
          row = new ArrayList<>();
        }
      }
      out.add(new ReplicaCells(m.id() + (log.isLeader() ? " (leader)" : " (follower)"), e.currentTimeMillis(table),
          rows));
    }
    return out;
  }

  private InJvmCluster.Member leader(String table) {
    try {
      return cluster.leaderOf(table, cluster.live().get(0).id());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a leader of table " + table, e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("no leader of table " + table + " within " + InJvmCluster.WAIT_MS + " ms", e);
    }
  }

  @Override
  public void close() {
    if (cluster != null) {
      cluster.close();
    }
  }
}
