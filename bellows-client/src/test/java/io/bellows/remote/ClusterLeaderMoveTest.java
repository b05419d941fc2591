package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.engine.LeaderMove;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.StorageException;
import io.bellows.util.TableNotFoundException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HBase's {@code move} as a leadership move ({@link io.bellows.engine.Engine#moveLeader}): three
 * members in this JVM, each behind its server; a table of three regions is written by a client
 * thread while the leadership of its middle region is handed to a named member through {@link
 * RemoteCluster}, then through a member that neither leads nor receives it, then to the member
 * leading fewest (no member named). Every member then knows the new leader, a move to the leader
 * changes nothing, and every acknowledged write reads back. Refused: an unknown table or member,
 * and a member that is down (asked of its Raft port first: a leader asked to hand over to it would
 * refuse writes until the transfer timed out).
 */
class ClusterLeaderMoveTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] ROW = Bytes.of("m");

  @TempDir Path dir;

  @Test
  void aRegionsLeadershipGoesToTheNamedMemberWhileWritesGoOn() throws Exception {
    try (InJvmCluster cluster = new InJvmCluster(dir)) {
      RemoteOptions options = RemoteOptions.defaults().withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500));
      try (Bellows db = Bellows.over(RemoteCluster.open(cluster.addresses(), options))) {
        db.createTable(TableDescriptor.builder("t").family("f").build(), List.of(Bytes.of("g"), Bytes.of("p")));
        Table t = db.getTable("t");
        UUID group = cluster.member("m1").engine().groups("t").get(1); // the region [g, p), holding "m"
        String leader = cluster.member("m1").engine().node().awaitLeader(group, InJvmCluster.WAIT_MS);
        for (InJvmCluster.Member m : cluster.live()) { // every member holds the group's log: none is behind
          m.engine().node().log(group).read(new byte[0]).join();
        }

        Set<String> acked = ConcurrentHashMap.newKeySet();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread writer = new Thread(() -> {
          try {
            for (int i = 0; !stop.get(); i++) {
              String row = "m" + i;
              t.put(new Put(Bytes.of(row)).addColumn(F, F, Bytes.of(row)));
              acked.add(row);
            }
          } catch (Throwable e) {
            failed.set(e);
          }
        }, "writer");
        writer.start();
        try {
          // To a named member, through the client (first asked of the leader it knows).
          String to = cluster.others(leader).get(0).id();
          LeaderMove first = db.moveLeader("t", ROW, to);
          assertThat(first).isEqualTo(new LeaderMove(leader, to));
          assertThat(first.moved()).isTrue();
          awaitLeader(cluster, group, to);

          // Asked of a member that neither leads nor receives it: it asks the leader itself.
          String third = cluster.ids().stream().filter(id -> !id.equals(leader) && !id.equals(to)).findFirst()
              .orElseThrow();
          ReplicatedEngine bystander = cluster.member(leader).engine();
          assertThat(bystander.moveLeader("t", ROW, third)).isEqualTo(new LeaderMove(to, third));
          awaitLeader(cluster, group, third);

          // Already there: nothing moves.
          LeaderMove again = db.moveLeader("t", ROW, third);
          assertThat(again.moved()).isFalse();
          assertThat(again.to()).isEqualTo(third);

          // No member named: one of the two others, the one leading fewest regions.
          LeaderMove any = db.moveLeader("t", ROW, null);
          assertThat(any.from()).isEqualTo(third);
          assertThat(any.to()).isIn(leader, to);
          awaitLeader(cluster, group, any.to());
        } finally {
          waitForWrites(acked, failed, 20);
        }

        // Refusals, each naming why.
        assertThatThrownBy(() -> db.moveLeader("nope", ROW, "m1")).isInstanceOf(TableNotFoundException.class);
        assertThatThrownBy(() -> db.moveLeader("t", ROW, "m9")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("no member 'm9'");
        String now = cluster.member("m1").engine().node().awaitLeader(group, InJvmCluster.WAIT_MS);
        String down = cluster.others(now).get(0).id();
        cluster.stop(down);
        assertThatThrownBy(() -> db.moveLeader("t", ROW, down)).isInstanceOf(io.bellows.util.RefusedException.class)
            .hasMessageContaining("member " + down + " did not answer");
        waitForWrites(acked, failed, 20); // the leader took writes on: it was never asked to hand over
        stop.set(true);
        writer.join();
        assertThat(failed.get()).isNull();
        for (String row : acked) {
          assertThat(Bytes.str(t.get(new Get(Bytes.of(row))).getValue(F, F))).as(row).isEqualTo(row);
        }
      }
    }
  }

  /** Waits until the writer has acknowledged {@code more} writes past what it had; fails with its failure. */
  private static void waitForWrites(Set<String> acked, AtomicReference<Throwable> failed, int more)
      throws InterruptedException {
    int target = acked.size() + more;
    long end = System.nanoTime() + Duration.ofMillis(InJvmCluster.WAIT_MS).toNanos();
    while (acked.size() < target) {
      if (failed.get() != null) {
        throw new AssertionError("the writer failed", failed.get());
      }
      assertThat(System.nanoTime() - end).as("writes acknowledged in time").isNegative();
      Thread.sleep(10); // polling the writer's progress, not synchronizing
    }
  }

  /** Waits until every live member knows {@code expected} as the group's leader. */
  private static void awaitLeader(InJvmCluster cluster, UUID group, String expected) throws Exception {
    for (InJvmCluster.Member m : cluster.live()) {
      String known = m.engine().node().awaitLeader(group, InJvmCluster.WAIT_MS);
      while (!known.equals(expected)) {
        known = m.engine().node().awaitLeaderOtherThan(group, known, InJvmCluster.WAIT_MS);
      }
    }
  }
}
