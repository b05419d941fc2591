package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import io.bellows.util.StorageException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replicated counterpart of {@code engine.CrashRecoveryTest}: three {@code bellows server
 * --cluster} processes take a seeded workload through {@link RemoteCluster} (puts of new rows,
 * increments of one counter) while the test SIGKILLs members at seeded points of it and restarts
 * each on its directory: one member (whichever the seed names, leading or not), then all three at
 * once (a whole-cluster crash: each restarted member replays its own log after its checkpoint,
 * and they elect a leader again). Then, with the writes ended, every member's replica, read on
 * that member alone, must hold every acknowledged write and the same cells as the others, and the
 * counter must lie between the acknowledged increments and those plus the ones of unknown outcome.
 *
 * <p>What it adds to {@code ClusterFailoverTest} (the leader killed, restarted, another killed;
 * reads through the leader) and {@code ClusterHistoryTest} (one member killed per round, checked
 * histories): the whole cluster killed at once, and every replica checked, not only what the
 * leader answers. {@code -Dbellows.cluster.crash.cycles=N} runs N cycles of every member in turn
 * (seeded order) and then all three, instead of the default two faults. Prints its seed (the
 * rows, values, fault points and targets replay; the timing does not). Server processes: one such
 * test at a time.
 */
@ExtendWith(SeedExtension.class)
class ClusterCrashTest {
  private static final int WRITERS = 2;
  private static final int CYCLES = Integer.getInteger("bellows.cluster.crash.cycles", 0);
  private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(120);
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");
  private static final byte[] COUNTER = Bytes.of("counter");
  private static final byte[] N = Bytes.of("n");

  @TempDir(cleanup = CleanupMode.ON_SUCCESS) // a failed run keeps the members' logs and thread dumps
  Path dir;

  @Test
  void killedMembersAndAWholeClusterCrashLoseNoAcknowledgedWriteOnAnyReplica(Seed seed) throws Exception {
    Random plan = seed.random(100);
    List<String> faults = new ArrayList<>();
    if (CYCLES == 0) {
      faults.add("n" + (1 + plan.nextInt(3)));
      faults.add("all");
    }
    for (int c = 0; c < CYCLES; c++) {
      List<String> ids = new ArrayList<>(List.of("n1", "n2", "n3"));
      Collections.shuffle(ids, plan);
      faults.addAll(ids);
      faults.add("all");
    }
    System.out.println("ClusterCrashTest " + seed + ": faults " + faults);

    LocalCluster cluster = LocalCluster.start(dir, 3, false);
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1); // the writers and their watcher
    RemoteOptions options = RemoteOptions.defaults().withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500));
    try (Bellows db = RemoteEngine.connect(cluster.addresses(), options)) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = db.getTable("t");

      Map<String, String> acked = new ConcurrentHashMap<>();
      AtomicInteger ackedCount = new AtomicInteger();
      AtomicInteger failedPuts = new AtomicInteger();
      AtomicInteger ackedIncrements = new AtomicInteger();
      AtomicInteger unknownIncrements = new AtomicInteger();
      AtomicInteger failedIncrements = new AtomicInteger();
      AtomicBoolean stop = new AtomicBoolean();
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        Random rnd = seed.random(w);
        writers.add(pool.submit(() -> {
          for (int i = 0; !stop.get(); i++) {
            if (i % 4 == 3) {
              try {
                t.incrementColumnValue(COUNTER, F, N, 1);
                ackedIncrements.incrementAndGet();
              } catch (RemoteCluster.OutcomeUnknownException e) {
                unknownIncrements.incrementAndGet(); // may have applied: the counter's upper bound
              } catch (StorageException e) {
                failedIncrements.incrementAndGet(); // never reached a member in time: not applied
              }
              continue;
            }
            String row = String.format("w%d-%05d", writer, i);
            byte[] value = Bytes.of("v" + rnd.nextLong());
            try {
              t.put(new Put(Bytes.of(row)).addColumn(F, Q, value));
            } catch (StorageException e) {
              failedPuts.incrementAndGet(); // the deadline passed with the whole cluster down: not acknowledged
              continue;
            }
            acked.put(row + "/f:q", HexFormat.of().formatHex(value));
            synchronized (ackedCount) {
              ackedCount.incrementAndGet();
              ackedCount.notifyAll();
            }
          }
          return null;
        }));
      }
      pool.execute(() -> { // wakes the waits below when a writer ends (it failed, or the test stopped it)
        for (Future<?> f : writers) {
          try {
            f.get();
          } catch (Exception e) {
            // the wait reports it
          }
          synchronized (ackedCount) {
            ackedCount.notifyAll();
          }
        }
      });

      for (String fault : faults) {
        awaitCount(ackedCount, ackedCount.get() + 40 + plan.nextInt(80), writers);
        int at = ackedCount.get();
        if (fault.equals("all")) {
          ClusterMember.killAll(cluster.members);
          ClusterMember.startAll(cluster.members);
          System.out.printf("%s: killed all three members after %d acknowledged writes and restarted them%n", seed, at);
        } else {
          ClusterMember m = cluster.member(fault);
          boolean led = cluster.leaderOf("t") == m;
          m.kill();
          awaitCount(ackedCount, ackedCount.get() + 20 + plan.nextInt(40), writers); // two members take writes
          m.start();
          System.out.printf("%s: killed %s (%s) after %d acknowledged writes and restarted it%n", seed, m.id,
              led ? "the leader" : "a follower", at);
        }
      }
      awaitCount(ackedCount, ackedCount.get() + 50, writers); // the cluster takes writes after the last restart
      stop.set(true);
      for (Future<?> f : writers) {
        f.get(2, TimeUnit.MINUTES);
      }
      System.out.printf("%s: %d puts acknowledged, %d failed; increments: %d acknowledged, %d of unknown outcome,"
          + " %d failed%n", seed, acked.size(), failedPuts.get(), ackedIncrements.get(), unknownIncrements.get(),
          failedIncrements.get());

      Map<String, Map<String, String>> replicas = ReplicaContents.read(cluster.members, "t", options);
      Map<String, String> first = replicas.values().iterator().next();
      for (Map.Entry<String, Map<String, String>> r : replicas.entrySet()) {
        Map<String, String> cells = r.getValue();
        assertThat(cells).as("%s: member %s holds every acknowledged put", seed, r.getKey()).containsAllEntriesOf(acked);
        assertThat(cells).as("%s: member %s holds the cells of member %s", seed, r.getKey(),
            replicas.keySet().iterator().next()).isEqualTo(first);
      }
      long counter = Bytes.getLong(HexFormat.of().parseHex(first.get("counter/f:n")), 0);
      assertThat(counter).as("%s: the counter", seed)
          .isBetween((long) ackedIncrements.get(), (long) ackedIncrements.get() + unknownIncrements.get());
    } catch (Throwable e) {
      ClusterMember.diagnose(cluster.members, e);
      throw e;
    } finally {
      pool.shutdownNow();
      cluster.close();
    }
  }

  /** Waits until {@code count} reaches {@code target} (woken by each write), failing early if a writer failed. */
  private static void awaitCount(AtomicInteger count, int target, List<Future<?>> writers) throws Exception {
    long end = System.nanoTime() + WAIT_NANOS;
    synchronized (count) {
      while (count.get() < target) {
        for (Future<?> f : writers) {
          if (f.isDone()) {
            f.get(); // a writer's failure ends the test with its cause
            throw new AssertionError("a writer ended early");
          }
        }
        long left = end - System.nanoTime();
        if (left <= 0) {
          throw new TimeoutException("only " + count.get() + " of " + target + " writes acknowledged");
        }
        TimeUnit.NANOSECONDS.timedWait(count, left);
      }
    }
  }
}
