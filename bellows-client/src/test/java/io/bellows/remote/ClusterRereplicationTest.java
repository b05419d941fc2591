package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.config.EngineOptions;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Re-replication: four members in this JVM, a region's replicas on three of them. One of those
 * stops and stays down past the re-replication delay (3 s here); meta's leader moves its replica
 * to the fourth member, which seeds it from a checkpoint. A second of the original three then
 * stops: the region still takes writes (the new replica makes the majority) and every row, written
 * before and after, reads back. The first member, restarted, removes the replica it no longer holds.
 */
class ClusterRereplicationTest {
  private static final byte[] F = Bytes.of("f");

  @TempDir Path dir;

  @Test
  void theReplicaOfAMemberDownTooLongMovesToALiveMember() throws Exception {
    try (InJvmCluster cluster = new InJvmCluster(dir, EngineOptions.defaults(), 4,
        new ReplicatedEngine.Replication(3, Duration.ofSeconds(3)))) {
      RemoteOptions options = RemoteOptions.defaults().withRetries(10, Duration.ofMillis(50), Duration.ofMillis(500));
      try (Bellows db = Bellows.over(RemoteCluster.open(cluster.addresses(), options))) {
        db.createTable(TableDescriptor.builder("t").family("f").build());
        Table t = db.getTable("t");
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
          rows.add(put(t, "a" + i));
        }
        ReplicatedEngine any = cluster.live().get(0).engine();
        UUID group = any.group("t");
        List<String> peers = any.replicaMembers(group);
        assertThat(peers).hasSize(3);
        String spare = cluster.ids().stream().filter(id -> !peers.contains(id)).findFirst().orElseThrow();
        String metaLeader = any.node().awaitLeader(ReplicatedEngine.META, InJvmCluster.WAIT_MS);
        String lost = peers.stream().filter(p -> !p.equals(metaLeader)).findFirst().orElseThrow();

        cluster.stop(lost);
        ReplicatedEngine watcher = cluster.member(spare).engine();
        InJvmCluster.await("the replica of " + lost + " moved to " + spare,
            () -> watcher.replicaMembers(group).contains(spare) && !watcher.replicaMembers(group).contains(lost)
            && watcher.node().holds(group) && cluster.member(metaLeader).engine().node().members().of(group).contains(spare)
            && !cluster.member(metaLeader).engine().node().members().of(group).contains(lost));
        for (int i = 0; i < 50; i++) {
          rows.add(put(t, "b" + i));
        }

        // A second original replica stops: the moved one is part of every majority now.
        String second = peers.stream().filter(p -> !p.equals(lost) && !p.equals(metaLeader)).findFirst().orElseThrow();
        cluster.stop(second); // meta keeps three of its four members: it still has a majority
        for (int i = 0; i < 50; i++) {
          rows.add(put(t, "c" + i));
        }
        for (String row : rows) {
          assertThat(Bytes.str(t.get(new Get(Bytes.of(row))).getValue(F, F))).as(row).isEqualTo(row);
        }

        // The first member comes back: it removes the replica it no longer holds.
        ReplicatedEngine back = cluster.start(lost, EngineOptions.defaults()).engine();
        Path replicaDir = dir.resolve(lost).resolve("regions").resolve(group.toString());
        InJvmCluster.await(lost + " removed its old replica",
            () -> !back.node().holds(group) && !Files.exists(replicaDir));
      }
    }
  }

  private static String put(Table t, String row) throws Exception {
    t.put(new Put(Bytes.of(row)).addColumn(F, F, Bytes.of(row)));
    return row;
  }
}
