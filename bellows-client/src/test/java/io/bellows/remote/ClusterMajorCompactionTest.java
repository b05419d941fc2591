package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.config.Durability;
import io.bellows.engine.RowMutation;
import io.bellows.engine.TableRef;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A major compaction must not make a cluster's replicas differ. It drops tombstones, after which
 * they no longer mask puts written later with older timestamps; each replica compacts its own
 * files, so one run on the leader alone let the leader answer such a put that the followers still
 * masked (found by {@link ReplicatedEngineModelTest}). Until every replica compacts at one position
 * of the log, a cluster refuses major compactions.
 */
class ClusterMajorCompactionTest {
  private static final byte[] ROW = Bytes.of("r");
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  @Test
  void aMajorCompactionLeavesEveryReplicaAnsweringAlike() throws Exception {
    try (InJvmCluster cluster = new InJvmCluster(dir);
        RemoteCluster client = RemoteCluster.open(cluster.addresses(),
            RemoteOptions.defaults().withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500)))) {
      client.createTable(TableDescriptor.builder("t").family("f").build());
      TableRef t = client.table("t");
      client.mutate(t, List.of(write(Cells.put(ROW, F, Q, 100, Bytes.of("first")))));
      // A tombstone of the column: it masks every version at or below 200.
      client.mutate(t, List.of(write(Cells.create(ROW, F, Q, 200, CellType.DELETE_COLUMN, new byte[0]))));
      client.flush("t");
      ReplicatedEngine leader = cluster.leaderOf("t", "m1").engine();

      Throwable compaction = catchThrowable(() -> leader.majorCompact("t"));
      // Older than the tombstone: masked while the tombstone is there.
      client.mutate(t, List.of(write(Cells.put(ROW, F, Q, 150, Bytes.of("late")))));

      Map<String, List<String>> answers = new LinkedHashMap<>();
      for (InJvmCluster.Member m : cluster.live()) {
        ReplicatedEngine e = m.engine();
        e.node().log(e.group("t")).read(new byte[0]).join(); // this replica has applied every write above
        answers.put(m.id() + (e == leader ? " (leader)" : ""), values(e.scanStale(e.table("t"),
            ScanQuery.builder().maxVersions(Integer.MAX_VALUE).build())));
      }
      assertThat(answers.values().stream().distinct()).as("every replica's cells: " + answers).hasSize(1);
      assertThat(answers.values().iterator().next()).as("the tombstone still masks the late put").isEmpty();
      assertThat(compaction).as("a cluster's major compaction").isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("major compaction").hasMessageContaining("not supported in a cluster");
    }
  }

  private static RowMutation write(Cell cell) {
    return new RowMutation(ROW, List.of(cell), -1, Durability.USE_DEFAULT);
  }

  private static List<String> values(RowScanner s) {
    List<String> out = new ArrayList<>();
    try (s) {
      List<Cell> row = new ArrayList<>();
      while (s.nextRow(row)) {
        row.forEach(c -> out.add(c.timestamp() + "=" + Bytes.str(c.value())));
        row.clear();
      }
    }
    return out;
  }
}
