package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.engine.ClusterStatus;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opt-in, not run in a build: {@code -Dbellows.steady.minutes=N}. Three {@code bellows server
 * --cluster} processes take steady writes (four threads putting rows as fast as they are
 * acknowledged) for N minutes with no fault: no group may change leader. Raft's term of each group
 * (meta and the table's region), the highest any member reports, is read before and after; any
 * election, won or not, raises it, so a term that moved is a spurious leader change (or an attempt
 * at one). The workload has no randomness (rows are numbered), so there is no seed.
 */
class ClusterSteadyTest {
  private static final double MINUTES = Double.parseDouble(System.getProperty("bellows.steady.minutes", "0"));
  private static final int WRITERS = 4;

  @TempDir
  Path dir;

  @Test
  void noGroupChangesLeaderUnderSteadyWrites() throws Exception {
    assumeTrue(MINUTES > 0, "opt-in: -Dbellows.steady.minutes=10 runs it (10 minutes of writes)");
    RemoteOptions options = RemoteOptions.defaults().withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500));
    try (LocalCluster cluster = LocalCluster.start(dir.resolve("cluster"), 3, false);
        RemoteCluster client = RemoteCluster.open(cluster.addresses(), options)) {
      System.out.println("[steady] the members' directories and logs: " + dir.resolve("cluster"));
      Bellows db = Bellows.over(client);
      db.createTable(TableDescriptor.builder("s").family("f").build());
      Table t = db.getTable("s");
      t.put(new Put(Bytes.of("first")).addColumn(Bytes.of("f"), Bytes.of("q"), Bytes.of("v")));
      ClusterMember leader = cluster.leaderOf("s"); // every member agrees on the region's leader
      Map<String, Long> before = terms(client, cluster.members.size());

      long end = System.nanoTime() + (long) (MINUTES * TimeUnit.MINUTES.toNanos(1));
      AtomicLong written = new AtomicLong();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        Thread thread = new Thread(() -> {
          try {
            for (long i = 0; System.nanoTime() < end && failure.get() == null; i++) {
              t.put(new Put(Bytes.of(String.format("w%d-%010d", writer, i)))
                  .addColumn(Bytes.of("f"), Bytes.of("q"), Bytes.toBytes(i)));
              written.incrementAndGet();
            }
          } catch (Throwable e) {
            failure.compareAndSet(null, e);
          }
        }, "steady-writer-" + w);
        writers.add(thread);
        thread.start();
      }
      for (Thread thread : writers) {
        thread.join();
      }
      Map<String, Long> after = terms(client, cluster.members.size());
      System.out.printf("[steady] %.1f minutes of writes from %d threads, no fault: %d rows acknowledged; the region's"
          + " leader %s; terms before %s, after %s%n", MINUTES, WRITERS, written.get(), leader.id, before, after);
      assertThat(failure.get()).as("a writer failed").isNull();
      assertThat(after).as("each group's term (any election raises it)").isEqualTo(before);
    }
  }

  /** Each group's highest term ("meta", or the table's name), as every member reports it. */
  private static Map<String, Long> terms(RemoteCluster client, int members) {
    ClusterStatus status = client.clusterStatus().orElseThrow();
    assertThat(status.members()).as("members that answered").allMatch(ClusterStatus.Member::reported);
    assertThat(status.members()).hasSize(members);
    Map<String, Long> terms = new TreeMap<>();
    for (ClusterStatus.Replica r : status.replicas()) {
      terms.merge(r.isMeta() ? "meta" : r.table(), r.term(), Math::max);
    }
    return terms;
  }
}
