package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.Table;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.FreePorts;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import io.bellows.wire.NotLeaderRefusal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code bellows server --cluster} processes; a follower of the table's region is killed, the
 * two others take more than a closed Raft log file of writes and more than the purge gap of
 * entries, flush and checkpoint, so their logs no longer hold what the killed member lacks. The
 * member restarted on its directory installs a checkpoint of the leader's files over the leader's
 * client port (the internal Replication call) and takes the log after it: with the third member
 * killed, the leader and it still acknowledge a write (a majority of two), and once the third is
 * back and the leader killed, the two left serve every acknowledged row. Timing-sensitive (server
 * processes): run it on a quiet machine. Prints its seed.
 */
@ExtendWith(SeedExtension.class)
class ClusterCatchUpTest {
  private static final int WRITERS = 4;
  /** More entries than the servers' purge gap (1024), and with the values more than a log file (4 MiB). */
  private static final int ROWS = 1400;
  private static final int VALUE_BYTES = 8 * 1024;
  private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(120);

  @TempDir(cleanup = CleanupMode.ON_SUCCESS) // a failed run keeps the members' logs and thread dumps
  Path dir;

  @Test
  void aMemberDownWhileTheOthersPurgedTheirLogsInstallsACheckpointAndCatchesUp(Seed seed) throws Exception {
    List<ClusterMember> members = startCluster();
    RemoteOptions options = RemoteOptions.defaults().withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500));
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try (Bellows db = RemoteEngine.connect(members.stream().map(m -> m.clientAddress).toList(), options)) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = db.getTable("t");
      Map<String, String> acked = new ConcurrentHashMap<>();
      put(t, acked, "before", seed.random(99));
      ClusterMember leader = leaderOf(members, "t");
      ClusterMember down = members.stream().filter(m -> m != leader).findFirst().orElseThrow();
      ClusterMember third = members.stream().filter(m -> m != leader && m != down).findFirst().orElseThrow();
      down.kill();

      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        Random rnd = seed.random(w);
        int writer = w;
        writers.add(pool.submit(() -> {
          for (int i = writer; i < ROWS; i += WRITERS) {
            byte[] value = new byte[VALUE_BYTES];
            rnd.nextBytes(value);
            String row = String.format("r%05d", i);
            t.put(new Put(Bytes.of(row)).addColumn(Bytes.of("f"), Bytes.of("q"), value));
            acked.put(row, java.util.HexFormat.of().formatHex(value));
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
      put(t, acked, "after", seed.random(98)); // the logs drop what the checkpoints cover as they move on

      down.start();
      assertThat(down.awaitLog("installed the checkpoint of group")).contains("installed the checkpoint of group");
      third.kill(); // a write now needs the restarted member's acknowledgement
      put(t, acked, "with-it", seed.random(97));
      third.start();
      leader.kill(); // the restarted member and the third serve everything
      for (Map.Entry<String, String> e : acked.entrySet()) {
        Result r = t.get(new Get(Bytes.of(e.getKey())));
        byte[] v = r.getValue(Bytes.of("f"), Bytes.of("q"));
        assertThat(v == null ? null : java.util.HexFormat.of().formatHex(v)).as("%s: acknowledged row %s", seed, e.getKey())
            .isEqualTo(e.getValue());
      }
    } catch (Throwable e) {
      ClusterMember.diagnose(members, e);
      throw e;
    } finally {
      pool.shutdownNow();
      ClusterMember.stopAll(members);
    }
  }

  private static void put(Table t, Map<String, String> acked, String prefix, Random rnd) {
    for (int i = 0; i < 10; i++) {
      String row = prefix + i;
      String value = "v" + rnd.nextLong();
      t.put(new Put(Bytes.of(row)).addColumn(Bytes.of("f"), Bytes.of("q"), Bytes.of(value)));
      acked.put(row, java.util.HexFormat.of().formatHex(Bytes.of(value)));
    }
  }

  /** The member that leads the table's region: the one that answers a read instead of refusing it. */
  private static ClusterMember leaderOf(List<ClusterMember> members, String table) throws Exception {
    long end = System.nanoTime() + WAIT_NANOS;
    while (System.nanoTime() < end) {
      for (ClusterMember m : members) {
        try (Bellows one = RemoteEngine.connect(m.clientAddress, RemoteOptions.defaults().withRetries(1,
            Duration.ofMillis(10), Duration.ofMillis(10)))) {
          one.getTable(table).get(new Get(Bytes.of("any")));
          return m;
        } catch (NotLeaderRefusal e) {
          // not this one
        }
      }
    }
    throw new TimeoutException("no member leads table " + table);
  }

  private List<ClusterMember> startCluster() throws Exception {
    StringBuilder file = new StringBuilder();
    List<String[]> ids = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      String client = "127.0.0.1:" + FreePorts.next();
      file.append("n").append(i).append(" 127.0.0.1:").append(FreePorts.next()).append(' ').append(client).append('\n');
      ids.add(new String[] {"n" + i, client});
    }
    Path memberFile = dir.resolve("members.txt");
    Files.writeString(memberFile, file);
    List<ClusterMember> members = new ArrayList<>();
    for (String[] m : ids) {
      members.add(new ClusterMember(dir.resolve(m[0]), memberFile, m[0], m[1], null));
    }
    ClusterMember.startAll(members);
    return members;
  }

}
