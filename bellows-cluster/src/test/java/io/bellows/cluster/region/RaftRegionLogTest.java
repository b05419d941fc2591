package io.bellows.cluster.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.cell.Cells;
import io.bellows.cluster.NotLeaderException;
import io.bellows.cluster.region.RegionCluster.Replica;
import io.bellows.record.WriteRecord;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replicated region's log on three nodes: a follower refuses a write before it evaluates
 * anything, and a record evaluated in an earlier term than the one it reaches the log in is
 * applied by no replica.
 */
@Timeout(120)
class RaftRegionLogTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");
  private static final TableDescriptor TABLE = TableDescriptor.builder("t").family("f").build();

  @TempDir Path dir;
  private RegionCluster cluster;

  @BeforeEach
  void start() throws Exception {
    cluster = new RegionCluster(dir, TABLE);
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void aFollowerRefusesAWriteBeforeEvaluatingItAndNamesTheLeader() throws Exception {
    Replica leader = cluster.onLeaderReplica(region -> {
      region.mutate(Bytes.of("a"), List.of(Cells.put(Bytes.of("a"), F, Q, 1, Bytes.of("x"))), -1, null);
      return null;
    });
    Replica follower = cluster.live().stream().filter(r -> r != leader).findFirst().orElseThrow();
    follower.applier().awaitIndex(leader.applier().last());
    List<String> before = RegionCluster.contents(follower.region());
    assertThatThrownBy(() -> follower.region().mutateRow(Bytes.of("a"), null, List.of(), -1,
        List.of(ColumnUpdate.increment(F, Bytes.of("n"), 1)), null, false))
        .isInstanceOf(NotLeaderException.class)
        .satisfies(e -> assertThat(((NotLeaderException) e).leader()).isEqualTo(leader.id()));
    assertThat(RegionCluster.contents(follower.region())).isEqualTo(before);
  }

  @Test
  void aRecordEvaluatedInAnEarlierTermIsAppliedByNoReplica() throws Exception {
    Replica leader = cluster.leaderOtherThan(null);
    long term = leader.log().beginEvaluation();
    WriteRecord stale = new WriteRecord(RegionCluster.REGION_ID, 0,
        List.of(Cells.put(Bytes.of("stale"), F, Q, 1, Bytes.of("x"))));
    // As if evaluated before this replica's current leadership: the entry reaches the log in term `term`.
    assertThatThrownBy(() -> leader.log().propose(term - 1, stale)).isInstanceOf(StaleLeadershipException.class);
    leader.log().propose(term, new WriteRecord(RegionCluster.REGION_ID, 0,
        List.of(Cells.put(Bytes.of("fresh"), F, Q, 1, Bytes.of("y")))));
    for (Replica r : cluster.live()) {
      r.applier().awaitIndex(leader.applier().last());
      assertThat(RegionCluster.contents(r.region())).as(r.id()).hasSize(1)
          .allSatisfy(c -> assertThat(c).contains(java.util.HexFormat.of().formatHex(Bytes.of("fresh"))));
    }
  }
}
