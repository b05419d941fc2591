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
import io.bellows.region.Region;
import io.bellows.scan.ScanQuery;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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

  private static Region.RowWrite put(String row, String value) {
    return new Region.RowWrite(Bytes.of(row), List.of(Cells.put(Bytes.of(row), F, Q, Long.MAX_VALUE, Bytes.of(value))),
        -1, null);
  }

  /**
   * A batch that writes a row three times is three entries (mini-batches), proposed together: the
   * followers apply all three while the leader's own apply of the first is held back, so the batch
   * costs one round of the log, not three; every replica ends with the row's last write.
   */
  @Test
  void aBatchsEntriesAreAllInTheLogBeforeTheLeaderAppliesTheFirst() throws Exception {
    Replica leader = cluster.onLeaderReplica(region -> {
      region.mutate(Bytes.of("z"), List.of(Cells.put(Bytes.of("z"), F, Q, 1, Bytes.of("x"))), -1, null);
      return null;
    });
    Replica follower = cluster.live().stream().filter(r -> r != leader).findFirst().orElseThrow();
    follower.applier().awaitIndex(leader.applier().last());
    long handed = follower.applier().handed();
    leader.applier().holdFrom(leader.applier().last() + 1);
    ExecutorService writer = Executors.newSingleThreadExecutor();
    try {
      Future<?> batch = writer.submit(() -> leader.region().mutateBatch(
          List.of(put("a", "1"), put("b", "1"), put("a", "2"), put("c", "1"), put("a", "3"))));
      follower.applier().awaitHanded(handed + 3); // before: the second entry waited for the first's apply here
      assertThat(batch).isNotDone();
      leader.applier().release();
      batch.get(RegionCluster.WAIT_MS, TimeUnit.MILLISECONDS);
    } finally {
      leader.applier().release();
      writer.shutdownNow();
    }
    assertThat(follower.applier().handed()).isEqualTo(handed + 3);
    for (Replica r : cluster.live()) {
      r.applier().awaitIndex(leader.applier().last());
      List<io.bellows.cell.Cell> a = new java.util.ArrayList<>();
      try (io.bellows.region.RegionScanner s = r.region().scanner(ScanQuery.builder().singleRow(Bytes.of("a")).build())) {
        s.nextRow(a);
      }
      assertThat(a).as(r.id()).extracting(c -> new String(c.value(), StandardCharsets.UTF_8)).containsExactly("3");
    }
  }

  /**
   * Two writers' batches on a shared row share the log's rounds: the second is proposed while the
   * first still waits for the leader's apply (a batch of plain writes releases its rows once its
   * entries are in the log), so the followers apply both while the leader's apply is held back.
   */
  @Test
  void batchesOfTwoWritersOnAHotRowAreInTheLogTogether() throws Exception {
    Replica leader = cluster.onLeaderReplica(region -> {
      region.mutate(Bytes.of("z"), List.of(Cells.put(Bytes.of("z"), F, Q, 1, Bytes.of("x"))), -1, null);
      return null;
    });
    Replica follower = cluster.live().stream().filter(r -> r != leader).findFirst().orElseThrow();
    follower.applier().awaitIndex(leader.applier().last());
    long handed = follower.applier().handed();
    leader.applier().holdFrom(leader.applier().last() + 1);
    ExecutorService writers = Executors.newFixedThreadPool(2);
    try {
      Future<?> first = writers.submit(() -> leader.region().mutateBatch(List.of(put("a", "1"), put("b", "1"))));
      follower.applier().awaitHanded(handed + 1);
      Future<?> second = writers.submit(() -> leader.region().mutateBatch(List.of(put("c", "2"), put("a", "2"))));
      follower.applier().awaitHanded(handed + 2); // before: the second waited for row a's lock until the first applied
      assertThat(first).isNotDone();
      leader.applier().release();
      first.get(RegionCluster.WAIT_MS, TimeUnit.MILLISECONDS);
      second.get(RegionCluster.WAIT_MS, TimeUnit.MILLISECONDS);
    } finally {
      leader.applier().release();
      writers.shutdownNow();
    }
    for (Replica r : cluster.live()) {
      r.applier().awaitIndex(leader.applier().last());
      List<io.bellows.cell.Cell> a = new java.util.ArrayList<>();
      try (io.bellows.region.RegionScanner s = r.region().scanner(ScanQuery.builder().singleRow(Bytes.of("a")).build())) {
        s.nextRow(a);
      }
      assertThat(a).as(r.id()).extracting(c -> new String(c.value(), StandardCharsets.UTF_8)).containsExactly("2");
    }
  }
}
