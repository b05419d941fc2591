package io.bellows.cluster.region;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.cluster.region.RegionCluster.Replica;
import io.bellows.fs.MemFileSystem;
import io.bellows.region.Region;
import io.bellows.region.RegionScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replicated counterpart of {@code engine.PowerLossTest} for what the file-system seam reaches:
 * one replica's region files are on a {@link MemFileSystem}, its Raft log on the local disk (Ratis
 * writes it with its own I/O, outside the seam, and syncs it before it acknowledges). In each round
 * the others take writes, and the replica flushes, checkpoints its group after each flush (as its
 * host does: Ratis drops the log below what the files hold, and with small log files it really
 * purges) and compacts, until a power loss armed at a random file-system operation cuts it: its
 * files lose what was not synced (dropped, torn, or torn and followed by garbage). It is stopped
 * and restarted on what the power loss left, opens its region without repair, and Ratis replays
 * its log after its last checkpoint; the replica must then hold the same cells, with the same
 * sequence ids, as the others, and the leader every acknowledged write. This is what fails if a
 * checkpoint ever runs ahead of what the files durably hold (a flush's files or manifest not
 * synced before the log drops the entries they cover): those writes would be in no file and no
 * log of that replica.
 *
 * <p>Not covered here: a power loss of the Raft log itself (outside the seam; a member that lost
 * its whole disk is {@code remote.ClusterDiskLossTest}), of the table of answered calls (written
 * with the JDK's file I/O; this test's writes name no calls), and a power loss of several replicas
 * at once. {@code -Dbellows.cluster.powerloss.rounds=N} runs longer. Prints its seed.
 */
@ExtendWith(SeedExtension.class)
class ReplicaPowerLossTest {
  private static final int ROUNDS = Integer.getInteger("bellows.cluster.powerloss.rounds", 3);
  private static final String VICTIM = "n3";
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");
  private static final int ROWS = 40;
  private static final TableDescriptor TABLE = TableDescriptor.builder("t").family("f").build();

  @TempDir Path dir;

  /** The newest value of each row's column, as acknowledged (absent once deleted). */
  private final Map<String, String> acknowledged = new TreeMap<>();
  /** Timestamps given by the test, one per write, rising: a put after a delete of its column is newer. */
  private long timestamp = 1;
  private RegionCluster cluster;

  @Test
  void aReplicaRebuildsFromItsLogWhatAPowerLossTookOfItsFiles(Seed seed) throws Exception {
    Random rnd = seed.random();
    MemFileSystem fs = new MemFileSystem();
    // Small log files, dropped soon after a checkpoint: what the files lose, the log no longer has.
    cluster = new RegionCluster(dir, TABLE, s -> s.withLogRetention(64 * 1024, 16), Map.of(VICTIM, fs));
    try {
      for (int round = 0; round < ROUNDS; round++) {
        write(rnd, 20 + rnd.nextInt(60));
        Replica victim = cluster.replica(VICTIM);
        MemFileSystem.Tail tail = MemFileSystem.Tail.values()[rnd.nextInt(MemFileSystem.Tail.values().length)];
        long armedAt = fs.mutations() + rnd.nextInt(80);
        fs.crashAtOperation(armedAt, seed.random(1000 + round), tail);
        int maintained = 0;
        try {
          for (; maintained < 4 && fs.crashed() == null; maintained++) {
            victim.applier().awaitIndex(write(rnd, 10 + rnd.nextInt(40)).applier().last());
            victim.region().flush(true);
            victim.node().checkpoint(RegionCluster.GROUP); // as its host does after a flush
            if (rnd.nextInt(3) == 0) {
              victim.region().compact(false);
            }
          }
        } catch (RuntimeException e) {
          assertThat(fs.crashed()).as("the replica's maintenance failed without a power loss: " + e).isNotNull();
        }
        boolean cut = fs.crashed() != null;
        MemFileSystem after = cut ? fs.crashed() : fs.crash(seed.random(2000 + round), tail);
        stopQuietly(VICTIM);
        // The two others lead on before it comes back (a leader restarted at once, before they
        // noticed it was gone, once left the group without a leader for 30 s: not yet explained).
        cluster.leaderOtherThan(VICTIM);
        System.out.printf("%s: round %d: power loss of %s's files (%s tails) %s, after %d flushes%n", seed, round,
            VICTIM, tail, cut ? "at file-system operation " + armedAt : "between operations", maintained);
        cluster.restart(VICTIM, after);
        fs = after;
        write(rnd, 5 + rnd.nextInt(20)); // the restarted replica follows the log again
        assertEveryReplicaHoldsTheSameCellsAndEveryAcknowledgedWrite(rnd, seed);
      }
    } finally {
      cluster.close();
    }
  }

  /**
   * {@code n} puts and deletes of the rows through the leader, each at the next timestamp; returns
   * the replica that took the last.
   */
  private Replica write(Random rnd, int n) throws Exception {
    Replica on = null;
    for (int i = 0; i < n; i++) {
      String key = "r" + rnd.nextInt(ROWS);
      byte[] row = Bytes.of(key);
      long ts = timestamp++;
      Cell cell;
      String value = null;
      if (rnd.nextInt(5) == 0) {
        cell = Cells.create(row, F, Q, ts, CellType.DELETE_COLUMN, new byte[0]);
      } else {
        byte[] v = new byte[100 + rnd.nextInt(1900)]; // a few rounds of these fill several log files
        rnd.nextBytes(v);
        value = HexFormat.of().formatHex(v);
        cell = Cells.put(row, F, Q, ts, v);
      }
      on = cluster.onLeaderReplica(region -> {
        region.mutate(row, List.of(cell), -1, null);
        return null;
      });
      if (value == null) {
        acknowledged.remove(key);
      } else {
        acknowledged.put(key, value);
      }
    }
    return on;
  }

  private void stopQuietly(String id) {
    try {
      cluster.stop(id);
    } catch (RuntimeException e) {
      // its region's files are gone with the power: closing them may fail, nothing to keep
    }
  }

  private void assertEveryReplicaHoldsTheSameCellsAndEveryAcknowledgedWrite(Random rnd, Seed seed) throws Exception {
    Replica leader = write(rnd, 1); // once every replica applied it, each holds all before it
    long last = leader.applier().last();
    List<String> expected = RegionCluster.contents(leader.region());
    for (Replica r : cluster.live()) {
      r.applier().awaitIndex(last);
      assertThat(RegionCluster.contents(r.region())).as("%s: the cells of %s", seed, r.id()).isEqualTo(expected);
    }
    assertThat(cluster.live()).hasSize(3);
    assertThat(newestValues(leader.region())).as("%s: the acknowledged writes", seed).isEqualTo(acknowledged);
  }

  private static Map<String, String> newestValues(Region region) {
    Map<String, String> out = new TreeMap<>();
    try (RegionScanner s = region.scanner(ScanQuery.builder().build())) {
      List<Cell> row = new ArrayList<>();
      while (s.nextRow(row)) {
        for (Cell c : row) {
          out.put(Bytes.str(c.row()), HexFormat.of().formatHex(c.value()));
        }
        row.clear();
      }
    }
    return out;
  }
}
