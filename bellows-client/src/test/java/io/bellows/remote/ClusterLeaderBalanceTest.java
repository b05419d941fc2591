package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.cluster.LeaderBalance;
import io.bellows.cluster.RaftNode;
import io.bellows.cluster.server.RegionNotLeaderException;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.config.EngineOptions;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member back from a restart leads none of a table's regions (the others took them over while it
 * was down): a leader-balancing pass, which only meta's leader runs, hands leaderships over until
 * each of the three members leads two of the six regions, and the table is written and read on.
 * Three members in this JVM; and four, where meta's leader holds only some of the regions.
 */
class ClusterLeaderBalanceTest {
  private static final byte[] F = Bytes.of("f");
  private static final List<String> ROWS = List.of("a", "b", "c", "d", "e", "f");

  @TempDir Path dir;

  /** How long the restarted member may take to learn each group's leader (elections take 1–2 s). */
  private static final long LEADER_WAIT_MS = 30_000;

  @Test
  void aBalancingPassGivesAMemberBackFromARestartItsShareOfLeaderships() throws Exception {
    try (InJvmCluster cluster = new InJvmCluster(dir)) {
      RemoteOptions options = RemoteOptions.defaults().withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500));
      try (Bellows db = Bellows.over(RemoteCluster.open(cluster.addresses(), options))) {
        db.createTable(TableDescriptor.builder("t").family("f").build(),
            ROWS.subList(1, ROWS.size()).stream().map(Bytes::of).toList());
        Table t = db.getTable("t");
        List<UUID> groups = cluster.member("m1").engine().groups("t");
        assertThat(groups).hasSize(6);
        cluster.stop("m3");
        for (String row : ROWS) { // each region elects a leader among the two left
          t.put(new Put(Bytes.of(row)).addColumn(F, F, Bytes.of("before")));
        }
        ReplicatedEngine m3 = cluster.start("m3", EngineOptions.defaults()).engine();
        Map<UUID, String> leaders = leaders(cluster, groups);
        // Normally the restarted member leads none of them (it could win one back only if a leader
        // went silent for an election timeout meanwhile, as a long pause of this JVM would make it).
        boolean m3LedNone = !leaders.containsValue("m3");

        // Passes until the members are balanced (a hand-over Ratis refuses is tried by the next pass).
        // Before each, the restarted member reads meta and every region through their leaders: it
        // holds their logs (a transfer to a member behind waits for it) and meta's leader has just
        // heard from it (a member silent for two election timeouts is taken for down and given nothing).
        List<LeaderBalance.Move> made = new ArrayList<>();
        for (int pass = 1; pass <= 10 && !balanced(leaders); pass++) {
          // Just restarted, the member may not have heard from a leader yet, and a read through an
          // unknown leader fails at once (Ratis' "leader is unknown"): wait for the heartbeat first.
          m3.node().awaitLeader(ReplicatedEngine.META, LEADER_WAIT_MS);
          m3.node().log(ReplicatedEngine.META).read(new byte[0]).join();
          for (UUID g : groups) {
            m3.node().awaitLeader(g, LEADER_WAIT_MS);
            m3.node().log(g).read(new byte[0]).join();
          }
          List<LeaderBalance.Move> moves = new ArrayList<>();
          String balancer = null;
          for (InJvmCluster.Member m : cluster.live()) {
            List<LeaderBalance.Move> mine = m.engine().balanceLeaders();
            if (!mine.isEmpty()) {
              assertThat(balancer).as("only meta's leader balances").isNull();
              balancer = m.id();
              moves.addAll(mine);
            }
          }
          for (LeaderBalance.Move m : moves) {
            leaders.put(m.group(), m.to());
          }
          leaders(cluster, groups, leaders);
          made.addAll(moves);
        }
        if (m3LedNone) { // from 6-0-0 four hand-overs, from 3-3-0 two
          assertThat(made).as("hand-overs").hasSizeBetween(2, 4);
          assertThat(made.stream().filter(m -> m.to().equals("m3"))).as("to the restarted member").hasSize(2);
        }
        Map<String, Integer> led = new HashMap<>();
        leaders.values().forEach(l -> led.merge(l, 1, Integer::sum));
        assertThat(led).containsExactlyInAnyOrderEntriesOf(Map.of("m1", 2, "m2", 2, "m3", 2));
        // A client's call reaches meta's leader, whichever member it asks first: nothing more to hand over.
        assertThat(db.balance()).as("balanced").isZero();
        for (InJvmCluster.Member m : cluster.live()) {
          if (!m.engine().node().log(ReplicatedEngine.META).isLeader()) {
            assertThatThrownBy(() -> m.engine().balance()).as(m.id()).isInstanceOf(RegionNotLeaderException.class);
          }
        }

        for (String row : ROWS) {
          t.put(new Put(Bytes.of(row)).addColumn(F, F, Bytes.of("after")));
          assertThat(Bytes.str(t.get(new Get(Bytes.of(row))).getValue(F, F))).as(row).isEqualTo("after");
        }
      }
    }
  }

  /**
   * On four members, each region's replicas on three: meta's leader holds only some regions, and a
   * pass balances every region of the catalog all the same (the leader of one it does not hold is
   * asked of that region's members). Every leadership a member can take is handed to one member
   * that is not meta's leader; passes then leave every two members at most one leadership apart.
   */
  @Test
  void onMoreMembersThanReplicasAPassBalancesRegionsMetasLeaderHoldsNoReplicaOf() throws Exception {
    List<String> rows = List.of("a", "b", "c", "d", "e", "f", "g", "h");
    try (InJvmCluster cluster = new InJvmCluster(dir, EngineOptions.defaults(), 4,
        new ReplicatedEngine.Replication(3, Duration.ZERO))) {
      RemoteOptions options = RemoteOptions.defaults().withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500));
      try (Bellows db = Bellows.over(RemoteCluster.open(cluster.addresses(), options))) {
        db.createTable(TableDescriptor.builder("t").family("f").build(),
            rows.subList(1, rows.size()).stream().map(Bytes::of).toList());
        ReplicatedEngine m1 = cluster.member("m1").engine();
        List<UUID> groups = m1.groups("t");
        String metaLeader = m1.node().awaitLeader(ReplicatedEngine.META, InJvmCluster.WAIT_MS);
        List<UUID> notOnMetaLeader = groups.stream().filter(g -> !m1.replicaMembers(g).contains(metaLeader)).toList();
        assertThat(notOnMetaLeader).as("regions meta's leader holds no replica of").isNotEmpty();
        String crowded = m1.replicaMembers(notOnMetaLeader.get(0)).get(0);
        for (int i = 0; i < rows.size(); i++) {
          if (m1.replicaMembers(groups.get(i)).contains(crowded)) {
            db.moveLeader("t", Bytes.of(rows.get(i)), crowded);
          }
        }

        Map<String, Integer> led = Map.of();
        for (int pass = 1; pass <= 10; pass++) {
          led = ledBy(cluster, groups);
          if (Collections.max(led.values()) - Collections.min(led.values()) <= 1) {
            break;
          }
          for (UUID g : groups) { // every replica holds its log: a transfer to one behind waits for it
            for (String id : m1.replicaMembers(g)) {
              RaftNode n = cluster.member(id).engine().node();
              n.awaitLeader(g, LEADER_WAIT_MS);
              n.log(g).read(new byte[0]).join();
            }
          }
          cluster.member(metaLeader).engine().balanceLeaders();
        }
        assertThat(led.keySet()).as("members leading regions").containsExactlyInAnyOrder("m1", "m2", "m3", "m4");
        assertThat(Collections.max(led.values()) - Collections.min(led.values())).as("leaderships per member: " + led)
            .isLessThanOrEqualTo(1);
        Table t = db.getTable("t");
        for (String row : rows) {
          t.put(new Put(Bytes.of(row)).addColumn(F, F, Bytes.of("after")));
          assertThat(Bytes.str(t.get(new Get(Bytes.of(row))).getValue(F, F))).as(row).isEqualTo("after");
        }
      }
    }
  }

  /** How many of {@code groups} each member leads, as the groups' own members know their leaders. */
  private static Map<String, Integer> ledBy(InJvmCluster cluster, List<UUID> groups) throws Exception {
    Map<String, Integer> led = new HashMap<>();
    for (String id : cluster.ids()) {
      led.put(id, 0);
    }
    ReplicatedEngine any = cluster.live().get(0).engine();
    for (UUID g : groups) {
      String holder = any.replicaMembers(g).get(0);
      led.merge(cluster.member(holder).engine().node().awaitLeader(g, InJvmCluster.WAIT_MS), 1, Integer::sum);
    }
    return led;
  }

  /** Whether each of the three members leads two of the six groups. */
  private static boolean balanced(Map<UUID, String> leaders) {
    Map<String, Integer> led = new HashMap<>();
    leaders.values().forEach(l -> led.merge(l, 1, Integer::sum));
    return led.equals(Map.of("m1", 2, "m2", 2, "m3", 2));
  }

  /** Each group's leader once every live member knows one and all agree. */
  private static Map<UUID, String> leaders(InJvmCluster cluster, List<UUID> groups) throws Exception {
    Map<UUID, String> out = new HashMap<>();
    RaftNode first = cluster.live().get(0).engine().node();
    for (UUID g : groups) {
      out.put(g, first.awaitLeader(g, InJvmCluster.WAIT_MS));
    }
    return leaders(cluster, groups, out);
  }

  /** Waits until every live member knows {@code expected}'s leader of each group; returns what they know. */
  private static Map<UUID, String> leaders(InJvmCluster cluster, List<UUID> groups, Map<UUID, String> expected)
      throws Exception {
    for (InJvmCluster.Member m : cluster.live()) {
      RaftNode n = m.engine().node();
      for (UUID g : groups) {
        String known = n.awaitLeader(g, InJvmCluster.WAIT_MS);
        while (!known.equals(expected.get(g))) {
          known = n.awaitLeaderOtherThan(g, known, InJvmCluster.WAIT_MS);
        }
      }
    }
    return new HashMap<>(expected);
  }
}
