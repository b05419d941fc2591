package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.config.EngineOptions;
import io.bellows.engine.LeaderMove;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Placement and replica moves: four members in this JVM, each region's replicas on three of them.
 * A table of three regions is spread over the members; its middle region is split, and a replica
 * of one daughter (whose rows are in the parent's files, not in the daughter's log) is moved, while
 * a client writes, to the member holding none, through HBase's {@code move} ({@link
 * io.bellows.engine.Engine#moveLeader} naming that member): the member seeds its replica from a
 * checkpoint, the group's members change, the member it left removes its replica, and the new
 * member leads. Every acknowledged row reads back through it, also after both members restart.
 */
class ClusterReplicaMoveTest {
  private static final byte[] F = Bytes.of("f");

  @TempDir Path dir;

  @Test
  void aDaughtersReplicaMovesToAMemberHoldingNoneWhileWritesGoOn() throws Exception {
    try (InJvmCluster cluster = new InJvmCluster(dir, EngineOptions.defaults(), 4,
        new ReplicatedEngine.Replication(3, Duration.ZERO))) {
      RemoteOptions options = RemoteOptions.defaults().withRetries(10, Duration.ofMillis(50), Duration.ofMillis(500));
      try (Bellows db = Bellows.over(RemoteCluster.open(cluster.addresses(), options))) {
        db.createTable(TableDescriptor.builder("t").family("f").build(), List.of(Bytes.of("g"), Bytes.of("p")));
        Table t = db.getTable("t");

        // Placed on three of the four members each, spread: nine replicas, no member with more than three.
        ReplicatedEngine m1 = cluster.member("m1").engine();
        Map<String, Integer> held = new HashMap<>();
        for (UUID g : m1.groups("t")) {
          List<String> peers = m1.replicaMembers(g);
          assertThat(peers).as("the peers of group %s", g).hasSize(3);
          peers.forEach(p -> held.merge(p, 1, Integer::sum));
        }
        assertThat(held.values()).as("replicas per member").allMatch(n -> n >= 2 && n <= 3);

        List<String> before = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
          String row = "m" + (1000 + i);
          t.put(new Put(Bytes.of(row)).addColumn(F, F, Bytes.of(row)));
          before.add(row);
        }
        db.split("t", Bytes.of("m1100"));
        UUID daughter = m1.groups("t").get(1); // [g, m1100): rows only in the parent's files
        List<String> peers = m1.replicaMembers(daughter);
        String to = cluster.ids().stream().filter(id -> !peers.contains(id)).findFirst().orElseThrow();

        Set<String> acked = ConcurrentHashMap.newKeySet();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread writer = new Thread(() -> {
          try {
            for (int i = 0; !stop.get(); i++) {
              String row = "m" + (1000 + i % 100) + "w" + i;
              t.put(new Put(Bytes.of(row)).addColumn(F, F, Bytes.of(row)));
              acked.add(row);
            }
          } catch (Throwable e) {
            failed.set(e);
          }
        }, "writer");
        writer.start();
        LeaderMove move;
        try {
          move = db.moveLeader("t", Bytes.of("m1050"), to);
        } finally {
          stop.set(true);
          writer.join();
        }
        assertThat(failed.get()).as("the writer's failure").isNull();
        assertThat(move.to()).isEqualTo(to);
        assertThat(acked).as("writes acknowledged while the replica moved").isNotEmpty();

        List<String> after = m1.replicaMembers(daughter);
        assertThat(after).as("the daughter's peers after the move").hasSize(3).contains(to);
        String left = peers.stream().filter(p -> !after.contains(p)).findFirst().orElseThrow();
        for (String id : after) {
          assertThat(cluster.member(id).engine().node().awaitLeader(daughter, InJvmCluster.WAIT_MS))
              .as("the leader %s knows", id).isEqualTo(to);
        }
        // The member left removes its replica once it has applied the move's end: in the background.
        Path removed = dir.resolve(left).resolve("regions").resolve(daughter.toString());
        InJvmCluster.await("the replica moved away is removed",
            () -> !Files.exists(removed) && !cluster.member(left).engine().node().holds(daughter));
        assertThat(cluster.member(to).engine().node().members().of(daughter)).containsExactlyInAnyOrderElementsOf(after);

        assertRows(t, before, acked);
        // Both members restart: the moved replica reopens after its seed, the removed one stays removed.
        cluster.stop(to);
        cluster.stop(left);
        cluster.start(to, EngineOptions.defaults());
        cluster.start(left, EngineOptions.defaults());
        // A leader hands over only to a member holding its whole log: the restarted one catches up first.
        InJvmCluster.awaitCaughtUp(cluster.member(to).engine(), daughter, "the daughter, on the member it moved to");
        db.moveLeader("t", Bytes.of("m1050"), to);
        assertThat(cluster.member(left).engine().node().holds(daughter)).as("the member left, restarted").isFalse();
        assertRows(t, before, acked);
      }
    }
  }

  private static void assertRows(Table t, List<String> before, Set<String> acked) throws Exception {
    for (String row : before) {
      assertThat(Bytes.str(t.get(new Get(Bytes.of(row))).getValue(F, F))).as(row).isEqualTo(row);
    }
    for (String row : acked) {
      assertThat(Bytes.str(t.get(new Get(Bytes.of(row))).getValue(F, F))).as(row).isEqualTo(row);
    }
  }
}
