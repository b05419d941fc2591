package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.config.EngineOptions;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member restarted on an empty directory (three members in one JVM): one that follows both meta
 * and the table's region is stopped, its whole directory deleted (Raft logs, vote, region files),
 * and started again on the empty directory while meta takes no new entry. It must learn the table
 * from meta's log, join the table's group and catch up on its log, and then acknowledge a write as
 * one of a majority of two. Before, meta's leader, which still took it for holding what it had
 * acknowledged, never sent it meta's log: only heartbeats, which it refused (docs/design/cluster.md,
 * "A member that lost its disk"). Now it asks a leader that sends it nothing to hand its leadership
 * to another member, for meta and then for the table's group (or the announcement of itself to
 * meta makes meta's leader send it the log).
 */
class ClusterEmptyMemberTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir
  Path dir;

  @Test
  void aFollowerRestartedOnAnEmptyDirectoryCatchesUpOnMetaAndOnTheTable() throws Exception {
    RemoteOptions options = RemoteOptions.defaults().withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500));
    try (InJvmCluster cluster = new InJvmCluster(dir);
        Bellows db = RemoteEngine.connect(cluster.addresses(), options)) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = db.getTable("t");
      t.put(new Put(Bytes.of("a")).addColumn(F, Q, Bytes.of("1")));
      ReplicatedEngine m1 = cluster.member("m1").engine();
      String metaLeader = m1.node().awaitLeader(ReplicatedEngine.META, InJvmCluster.WAIT_MS);
      String tableLeader = cluster.leaderOf("t", "m1").id();
      // A follower of both: a leader lost would be replaced, and a new leader starts with no view of it.
      String lost = cluster.ids().stream().filter(id -> !id.equals(metaLeader) && !id.equals(tableLeader))
          .findFirst().orElseThrow();
      for (InJvmCluster.Member m : cluster.live()) {
        InJvmCluster.awaitCaughtUp(m.engine(), m.engine().group("t"), "before the loss");
      }
      cluster.stop(lost);
      deleteTree(dir.resolve(lost));
      ReplicatedEngine restarted = cluster.start(lost, EngineOptions.defaults()).engine();

      InJvmCluster.awaitCaughtUp(restarted, ReplicatedEngine.META, "meta, on the empty member");
      assertThat(restarted.listTables()).as("the tables member %s knows from meta's log", lost).containsExactly("t");
      t.put(new Put(Bytes.of("b")).addColumn(F, Q, Bytes.of("2")));
      InJvmCluster.awaitCaughtUp(restarted, restarted.group("t"), "the table, on the empty member");
      assertThat(rows(restarted)).containsExactly("a=1", "b=2");

      // The third member stops: a write now needs the acknowledgement of the member that was empty.
      String third = cluster.ids().stream().filter(id -> !Set.of(lost, tableLeader).contains(id))
          .findFirst().orElseThrow();
      cluster.stop(third);
      t.put(new Put(Bytes.of("c")).addColumn(F, Q, Bytes.of("3")));
      InJvmCluster.awaitCaughtUp(restarted, restarted.group("t"), "the table, with the third member stopped");
      assertThat(rows(restarted)).containsExactly("a=1", "b=2", "c=3");
    }
  }

  /** The member's own replica of table t, read on it alone: "row=value" per row. */
  private static List<String> rows(ReplicatedEngine e) {
    List<String> out = new ArrayList<>();
    try (RowScanner s = e.scanStale(e.table("t"), ScanQuery.builder().build())) {
      List<Cell> row = new ArrayList<>();
      while (s.nextRow(row)) {
        for (Cell c : row) {
          out.add(new String(c.row(), StandardCharsets.UTF_8) + "=" + new String(c.value(), StandardCharsets.UTF_8));
        }
        row.clear();
      }
    }
    return out;
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
