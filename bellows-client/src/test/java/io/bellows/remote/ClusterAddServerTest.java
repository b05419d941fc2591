package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.cluster.server.Members;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.config.EngineOptions;
import io.bellows.engine.ClusterStatus;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adding a member to a running cluster (the shell's {@code add_server}): three members in this JVM
 * hold a table of two regions; a fourth is started from a member file that lists it as added, and
 * the call takes it into meta's group. It then holds meta's catalog, every member knows its
 * addresses, a region's replica moves onto it, and with a founding member stopped the writes and
 * reads of both regions go on, reaching the new member through the answers of the others (the
 * client was opened with the founders' addresses only). Bad calls are refused with nothing changed.
 */
class ClusterAddServerTest {
  private static final byte[] F = Bytes.of("f");

  @TempDir Path dir;

  @Test
  void aMemberAddedToARunningClusterJoinsMetaTakesAReplicaAndServesWithAFounderDown() throws Exception {
    try (InJvmCluster cluster = new InJvmCluster(dir, EngineOptions.defaults(), 3,
        new ReplicatedEngine.Replication(3, Duration.ZERO))) {
      RemoteOptions options = RemoteOptions.defaults().withRetries(10, Duration.ofMillis(50), Duration.ofMillis(500));
      try (Bellows db = Bellows.over(RemoteCluster.open(cluster.addresses(), options))) {
        db.createTable(TableDescriptor.builder("t").family("f").build(), List.of(Bytes.of("m")));
        Table t = db.getTable("t");
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
          String row = (i % 2 == 0 ? "a" : "z") + (1000 + i);
          t.put(new Put(Bytes.of(row)).addColumn(F, F, Bytes.of(row)));
          rows.add(row);
        }

        Members.Member m4 = cluster.addToFile("m4");
        cluster.start("m4", EngineOptions.defaults());
        // Not in meta yet: no replica may move there.
        assertThatThrownBy(() -> db.moveLeader("t", Bytes.of("a1000"), "m4")).hasMessageContaining("m4");

        db.addServer("m4", m4.raftAddress(), m4.clientAddress());
        db.addServer("m4", m4.raftAddress(), m4.clientAddress()); // a repeat changes nothing
        for (InJvmCluster.Member m : cluster.live()) {
          InJvmCluster.await("member " + m.id() + " counts m4 in meta's group",
              () -> m.engine().node().members().of(ReplicatedEngine.META).contains("m4"));
        }
        ReplicatedEngine added = cluster.member("m4").engine();
        InJvmCluster.await("m4 applies meta's catalog", () -> added.groups("t").size() == 2);
        assertThat(cluster.member("m1").engine().clusterStatus().orElseThrow().members())
            .extracting(ClusterStatus.Member::id).containsExactly("m1", "m2", "m3", "m4");

        // Refused, nothing recorded: an id the cluster has at other addresses, an address another member has.
        assertThatThrownBy(() -> db.addServer("m2", "127.0.0.1:1", "127.0.0.1:2")).hasMessageContaining("m2")
            .hasMessageContaining("already");
        assertThatThrownBy(() -> db.addServer("m5", m4.raftAddress(), "127.0.0.1:3")).hasMessageContaining("m4")
            .hasMessageContaining("address");
        assertThatThrownBy(() -> db.addServer("m5", "no-port", "127.0.0.1:3")).hasMessageContaining("host:port");
        assertThat(cluster.member("m1").engine().clusterStatus().orElseThrow().members()).hasSize(4);

        // A replica of the first region moves onto the new member, which then leads it.
        UUID first = added.groups("t").get(0);
        db.moveLeader("t", Bytes.of("a1000"), "m4");
        assertThat(added.replicaMembers(first)).hasSize(3).contains("m4");
        assertThat(added.node().holds(first)).isTrue();

        // A founding member stops: meta (three of four) and both regions go on.
        String founderDown = added.replicaMembers(first).contains("m1") ? "m1" : "m2";
        cluster.stop(founderDown);
        for (int i = 0; i < 100; i++) {
          String row = (i % 2 == 0 ? "a" : "z") + (2000 + i);
          t.put(new Put(Bytes.of(row)).addColumn(F, F, Bytes.of(row)));
          rows.add(row);
        }
        assertRows(t, rows);

        // The new member restarts from its directory and the file that lists it; the founder comes back.
        cluster.stop("m4");
        cluster.start("m4", EngineOptions.defaults());
        cluster.start(founderDown, EngineOptions.defaults());
        assertThat(cluster.member("m4").engine().node().members().of(ReplicatedEngine.META)).contains("m4");
        assertRows(t, rows);
      }
    }
  }

  /**
   * The call reaches meta's leader before the new member runs; meta records it, then meta's leader
   * stops. The member starts afterwards: the next leader of meta takes it in by itself (its pass),
   * whatever became of the call, and the stopped member, back, counts it too. A fifth member whose
   * line lacks the {@code added} mark is refused at its start.
   */
  @Test
  void aMemberRecordedBeforeMetasLeaderStoppedIsTakenInByTheNextLeader() throws Exception {
    try (InJvmCluster cluster = new InJvmCluster(dir, EngineOptions.defaults(), 3,
        new ReplicatedEngine.Replication(3, Duration.ZERO))) {
      RemoteOptions options = RemoteOptions.defaults().withRetries(10, Duration.ofMillis(50), Duration.ofMillis(500));
      try (Bellows db = Bellows.over(RemoteCluster.open(cluster.addresses(), options))) {
        db.createTable(TableDescriptor.builder("t").family("f").build());
        Members.Member m4 = cluster.addToFile("m4");
        java.util.concurrent.atomic.AtomicReference<Throwable> outcome = new java.util.concurrent.atomic.AtomicReference<>();
        Thread call = new Thread(() -> {
          try {
            db.addServer("m4", m4.raftAddress(), m4.clientAddress());
          } catch (Throwable e) {
            outcome.set(e);
          }
        }, "add-server");
        call.start();
        for (InJvmCluster.Member m : cluster.live()) {
          InJvmCluster.await("member " + m.id() + " learns m4 from meta", () -> m.engine().clusterStatus().orElseThrow()
              .members().stream().anyMatch(k -> k.id().equals("m4")));
        }
        String metaLeader = cluster.live().get(0).engine().node().leaderOf(ReplicatedEngine.META);
        cluster.stop(metaLeader);
        cluster.start("m4", EngineOptions.defaults());
        for (InJvmCluster.Member m : cluster.live()) {
          InJvmCluster.await("member " + m.id() + " counts m4 in meta's group",
              () -> m.engine().node().members().of(ReplicatedEngine.META).contains("m4"));
        }
        call.join();
        cluster.start(metaLeader, EngineOptions.defaults());
        InJvmCluster.await("the member stopped, back, counts m4 in meta's group",
            () -> cluster.member(metaLeader).engine().node().members().of(ReplicatedEngine.META).contains("m4"));
        Table t = db.getTable("t");
        t.put(new Put(Bytes.of("r")).addColumn(F, F, Bytes.of("v")));
        assertThat(Bytes.str(t.get(new Get(Bytes.of("r"))).getValue(F, F))).isEqualTo("v");
        db.addServer("m4", m4.raftAddress(), m4.clientAddress()); // done already: answered at once

        // A new member whose line lacks the mark would count itself among meta's first members: refused at its start.
        cluster.addToFile("m5", false);
        assertThatThrownBy(() -> cluster.start("m5", EngineOptions.defaults())).hasMessageContaining("m5")
            .hasMessageContaining("'added'");
      }
    }
  }

  private static void assertRows(Table t, List<String> rows) throws Exception {
    for (String row : rows) {
      assertThat(Bytes.str(t.get(new Get(Bytes.of(row))).getValue(F, F))).as(row).isEqualTo(row);
    }
  }
}
