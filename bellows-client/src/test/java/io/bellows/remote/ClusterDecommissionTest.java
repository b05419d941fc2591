package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.config.EngineOptions;
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
 * Decommissioning (HBase's {@code decommission_regionservers}): four members in this JVM, each
 * region on three. A member is decommissioned through the client; meta's leader moves each of its
 * replicas to the others, a new table is placed on the three others alone, every row reads back,
 * and refusals say why (too few members left, an unknown member, a recommission of a member that
 * is not decommissioned). Recommissioned, the member is listed no more.
 */
class ClusterDecommissionTest {
  private static final byte[] F = Bytes.of("f");

  @TempDir Path dir;

  @Test
  void aDecommissionedMembersReplicasMoveToTheOthers() throws Exception {
    try (InJvmCluster cluster = new InJvmCluster(dir, EngineOptions.defaults(), 4,
        new ReplicatedEngine.Replication(3, Duration.ZERO))) {
      RemoteOptions options = RemoteOptions.defaults().withRetries(10, Duration.ofMillis(50), Duration.ofMillis(500));
      try (Bellows db = Bellows.over(RemoteCluster.open(cluster.addresses(), options))) {
        db.createTable(TableDescriptor.builder("t").family("f").build(), List.of(Bytes.of("g"), Bytes.of("p")));
        Table t = db.getTable("t");
        List<String> rows = new ArrayList<>();
        for (String prefix : List.of("a", "h", "q")) {
          for (int i = 0; i < 30; i++) {
            String row = prefix + i;
            t.put(new Put(Bytes.of(row)).addColumn(F, F, Bytes.of(row)));
            rows.add(row);
          }
        }
        ReplicatedEngine m1 = cluster.member("m1").engine();
        String gone = "m4";
        assertThat(m1.groups("t").stream().anyMatch(g -> m1.replicaMembers(g).contains(gone)))
            .as("m4 holds a replica of t before").isTrue();

        assertThatThrownBy(() -> db.decommission(List.of("m9"))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("m9");
        assertThatThrownBy(() -> db.decommission(List.of("m3", "m4"))).isInstanceOf(io.bellows.util.RefusedException.class)
            .hasMessageContaining("would leave 2 members");
        db.decommission(List.of(gone));
        assertThat(db.decommissioned()).containsExactly(gone);

        InJvmCluster.await("every replica moved off " + gone, () -> m1.groups("t").stream()
            .noneMatch(g -> m1.replicaMembers(g).contains(gone) || cluster.member(gone).engine().node().holds(g)));
        for (UUID g : m1.groups("t")) {
          assertThat(m1.replicaMembers(g)).as("group %s", g).hasSize(3).doesNotContain(gone);
        }
        db.createTable(TableDescriptor.builder("u").family("f").build());
        assertThat(m1.replicaMembers(m1.group("u"))).containsExactlyInAnyOrder("m1", "m2", "m3");
        for (String row : rows) {
          assertThat(Bytes.str(t.get(new Get(Bytes.of(row))).getValue(F, F))).as(row).isEqualTo(row);
        }

        db.recommission(gone);
        assertThat(db.decommissioned()).isEmpty();
        assertThatThrownBy(() -> db.recommission(gone)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("not decommissioned");
      }
    }
  }

}
