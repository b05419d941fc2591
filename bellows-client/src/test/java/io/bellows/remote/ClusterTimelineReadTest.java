package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.engine.RowMutation;
import io.bellows.engine.TableRef;
import io.bellows.scan.Consistency;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.wire.NotLeaderRefusal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TIMELINE reads of a cluster (three members in one JVM): a follower answers one from its own
 * replica, flagged stale, and keeps answering once the leader and the other follower are stopped
 * (it can reach no one and lead nothing); a default read on a follower is refused with NOT_LEADER
 * naming the leader, as before; the leader's TIMELINE answer is not stale. Through {@link
 * RemoteCluster}, whose cache names the stopped leader first, a TIMELINE read goes round to the
 * member that is left.
 */
class ClusterTimelineReadTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir
  Path dir;

  @Test
  void aFollowerAnswersTimelineReadsWithoutTheLeaderAndRefusesDefaultOnes() throws Exception {
    RemoteOptions one = RemoteOptions.defaults().withRetries(1, Duration.ofMillis(50), Duration.ofMillis(500));
    try (InJvmCluster cluster = new InJvmCluster(dir);
        RemoteCluster client = RemoteCluster.open(cluster.addresses(),
            RemoteOptions.defaults().withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500)))) {
      client.createTable(TableDescriptor.builder("t").family("f").build());
      TableRef t = client.table("t");
      for (int i = 0; i < 3; i++) {
        client.mutate(t, List.of(put("r" + i, "v" + i)));
      }
      for (String id : List.of("m1", "m2", "m3")) {
        // Each member has applied the table and every put: a linearizable read of its replicas (on a
        // follower, the read index asked of the leader) is the barrier; the reads below ask it nothing.
        ReplicatedEngine e = cluster.member(id).engine();
        e.node().log(ReplicatedEngine.META).read(new byte[0]).join();
        e.node().log(e.group("t")).read(new byte[0]).join();
      }
      InJvmCluster.Member leader = cluster.leaderOf("t", "m1");
      List<InJvmCluster.Member> followers = cluster.others(leader.id());

      try (RemoteEngine onLeader = RemoteEngine.open(leader.clientAddress(), one)) {
        try (RowScanner s = onLeader.scan(t, get("r1", Consistency.TIMELINE))) {
          assertThat(values(s)).containsExactly("v1");
          assertThat(s.mayBeStale()).as("the leader's answer").isFalse();
        }
      }
      InJvmCluster.Member follower = followers.get(0);
      try (RemoteEngine onFollower = RemoteEngine.open(follower.clientAddress(), one)) {
        assertThatThrownBy(() -> onFollower.scan(t, get("r1", Consistency.STRONG)))
            .isInstanceOfSatisfying(NotLeaderRefusal.class,
                e -> assertThat(e.leaderAddress()).isEqualTo(leader.clientAddress()));
        try (RowScanner s = onFollower.scan(t, get("r1", Consistency.TIMELINE))) {
          assertThat(values(s)).containsExactly("v1");
          assertThat(s.mayBeStale()).isTrue();
        }
      }

      // The leader and the other follower stop: the member left can elect no one and reach no one.
      InJvmCluster.Member survivor = followers.get(1);
      cluster.stop(leader.id());
      cluster.stop(follower.id());
      try (RemoteEngine alone = RemoteEngine.open(survivor.clientAddress(), one)) {
        try (RowScanner s = alone.scan(t, get("r2", Consistency.TIMELINE))) {
          assertThat(values(s)).containsExactly("v2");
          assertThat(s.mayBeStale()).isTrue();
        }
        try (RowScanner s = alone.scan(t, ScanQuery.builder().consistency(Consistency.TIMELINE).build())) {
          assertThat(values(s)).containsExactly("v0", "v1", "v2");
          assertThat(s.mayBeStale()).isTrue();
        }
        try (RowScanner s = alone.scan(t, get("none", Consistency.TIMELINE))) {
          assertThat(values(s)).isEmpty();
          assertThat(s.mayBeStale()).isTrue();
        }
        assertThat(alone.getAll(t, List.of(get("r0", Consistency.TIMELINE), get("r2", Consistency.TIMELINE))))
            .hasSize(2).allSatisfy(cells -> assertThat(cells).hasSize(1));
        assertThatThrownBy(() -> alone.scan(t, get("r1", Consistency.STRONG))).isInstanceOf(NotLeaderRefusal.class);
      }
      // The client last saw the stopped leader lead: its TIMELINE read goes round to the survivor.
      try (RowScanner s = client.scan(t, get("r0", Consistency.TIMELINE))) {
        assertThat(values(s)).containsExactly("v0");
        assertThat(s.mayBeStale()).isTrue();
      }
    }
  }

  private static RowMutation put(String row, String value) {
    return new RowMutation(Bytes.of(row), List.of(Cells.put(Bytes.of(row), F, Q, Long.MAX_VALUE, Bytes.of(value))), -1,
        io.bellows.config.Durability.USE_DEFAULT);
  }

  private static ScanQuery get(String row, Consistency c) {
    return ScanQuery.builder().singleRow(Bytes.of(row)).consistency(c).build();
  }

  private static List<String> values(RowScanner s) {
    List<String> out = new ArrayList<>();
    List<Cell> row = new ArrayList<>();
    while (s.nextRow(row)) {
      row.forEach(c -> out.add(Bytes.str(c.value())));
      row.clear();
    }
    return out;
  }
}
