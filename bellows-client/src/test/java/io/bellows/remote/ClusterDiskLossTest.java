package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replicated counterpart of {@code engine.PowerLossTest}, as far as it can go honestly. A
 * member's Raft log is written by Ratis with its own I/O, outside Bellows' file-system seam, so the
 * seam's power-loss simulation (unsynced tails dropped or torn) cannot reach it; and a member's
 * engine files are not on the seam either. What a power loss can do to one member at worst is
 * lose its whole disk: this test kills a follower (SIGKILL) and deletes its whole data directory
 * (the region's files, its table of answered calls, and its Raft logs and vote), while the two
 * others take more writes than their logs keep (more than the purge gap of entries and a closed
 * log file), flush and checkpoint. Restarted on the empty directory, the member rejoins meta from
 * its leader's log, opens its replica of the table, installs a checkpoint of the leader's files and
 * takes the log after it; with the third member killed, the leader and it acknowledge a write (a
 * majority of two); at the end every member's replica, read on that member alone, holds every
 * acknowledged write and the same cells as the others.
 *
 * <p>Not covered (docs/design/testing.md, "Replicated configurations"): a power loss that tears the
 * tail of a member's Raft log or engine files rather than losing the disk, and the loss of a
 * majority's disks (acknowledged writes are then gone: Raft keeps them on a majority only). A
 * member that lost its disk also lost its vote of its last term, which Raft assumes it keeps: the
 * safe way back for such a member is to leave and rejoin the group as a new one, which waits for
 * membership changes (cluster.md, step 5). Prints its seed. Server processes: one such test at a
 * time.
 *
 * <p>It failed until a member that starts empty announced itself to meta (a "member joined" entry
 * appended through meta's leader) and asked a leader that sends it nothing to hand its leadership to another member: meta's
 * leader took the empty member for holding what it had acknowledged before, its appender for the
 * member, slowed by the member's refusals, sent heartbeats only, and their refusals ({@code
 * INCONSISTENCY, nextIndex=0}) never moved it back to the start of its log, so the member never
 * applied the table's creation, never joined the table's group, and refused that group's
 * checkpoint notifications ({@code GroupMismatchException}; docs/design/cluster.md, "A member that
 * lost its disk").
 *
 * <p><b>Opt-in ({@code -Dbellows.cluster.diskloss=true}) for its run time</b>: 2.5 to 4.5 minutes on
 * the two-core build machine (the writes past a Raft log file and the purge gap, four member JVMs
 * started, a checkpoint fetched), where a build's test should take well under 90 s. {@code
 * ClusterEmptyMemberTest} (three members in one JVM, about 30 s) runs in every build as its quick
 * form: the same rejoin, without the checkpoint install.
 */
@ExtendWith(SeedExtension.class)
@EnabledIfSystemProperty(named = "bellows.cluster.diskloss", matches = "true",
    disabledReason = "2.5-4.5 minutes; ClusterEmptyMemberTest is its quick form; see the class comment")
class ClusterDiskLossTest {
  private static final int WRITERS = 4;
  /** More entries than the servers' purge gap (1024), and with the values more than a Raft log file (4 MiB). */
  private static final int ROWS = 1400;
  private static final int VALUE_BYTES = 8 * 1024;
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir
  Path dir;

  @Test
  void aFollowerThatLostItsWholeDiskCatchesUpByACheckpointAndEndsEqual(Seed seed) throws Exception {
    LocalCluster cluster = LocalCluster.start(dir, 3, false);
    RemoteOptions options = RemoteOptions.defaults().withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500));
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try (Bellows db = RemoteEngine.connect(cluster.addresses(), options)) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = db.getTable("t");
      Map<String, String> acked = new ConcurrentHashMap<>();
      put(t, acked, "before", seed.random(99));
      ClusterMember leader = cluster.leaderOf("t");
      List<ClusterMember> followers = cluster.members.stream().filter(m -> m != leader).toList();
      ClusterMember lost = followers.get(seed.random(98).nextInt(2));
      ClusterMember third = followers.get(0) == lost ? followers.get(1) : followers.get(0);
      lost.kill();
      deleteTree(dir.resolve(lost.id).resolve("data")); // LocalCluster's layout: DIR/ID/data
      System.out.printf("%s: %s (a follower; %s leads) killed, its data directory deleted%n", seed, lost.id, leader.id);

      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        Random rnd = seed.random(w);
        int writer = w;
        writers.add(pool.submit(() -> {
          for (int i = writer; i < ROWS; i += WRITERS) {
            byte[] value = new byte[VALUE_BYTES];
            rnd.nextBytes(value);
            String row = String.format("r%05d", i);
            t.put(new Put(Bytes.of(row)).addColumn(F, Q, value));
            acked.put(row + "/f:q", HexFormat.of().formatHex(value));
          }
          return null;
        }));
      }
      for (Future<?> f : writers) {
        f.get(5, TimeUnit.MINUTES);
      }
      for (ClusterMember m : List.of(leader, third)) { // each flushes its replica and checkpoints the group
        try (Bellows one = RemoteEngine.connect(m.clientAddress, options)) {
          one.flush("t");
        }
      }
      put(t, acked, "after", seed.random(97)); // the logs drop what the checkpoints cover as they move on

      lost.start();
      assertThat(lost.awaitLog("installed the checkpoint of group")).contains("installed the checkpoint of group");
      third.kill(); // a write now needs the acknowledgement of the member that lost its disk
      put(t, acked, "with-it", seed.random(96));
      third.start();

      Map<String, Map<String, String>> replicas = ReplicaContents.read(cluster.members, "t", options);
      Map<String, String> first = replicas.get(leader.id);
      for (Map.Entry<String, Map<String, String>> r : replicas.entrySet()) {
        assertThat(r.getValue()).as("%s: member %s holds every acknowledged put", seed, r.getKey())
            .containsAllEntriesOf(acked);
        assertThat(r.getValue()).as("%s: member %s holds the cells of member %s", seed, r.getKey(), leader.id)
            .isEqualTo(first);
      }
    } finally {
      pool.shutdownNow();
      cluster.close();
    }
  }

  private static void put(Table t, Map<String, String> acked, String prefix, Random rnd) {
    for (int i = 0; i < 10; i++) {
      String row = prefix + i;
      byte[] value = Bytes.of("v" + rnd.nextLong());
      t.put(new Put(Bytes.of(row)).addColumn(F, Q, value));
      acked.put(row + "/f:q", HexFormat.of().formatHex(value));
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
