package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.Table;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code bellows server --cluster} processes; clients write from several threads through
 * {@link RemoteCluster} while the test SIGKILLs the process that leads the table's region. The
 * survivors elect a leader and take writes again (the gap is printed, not judged); every
 * acknowledged row is readable afterwards, and the counter the threads increment equals the
 * acknowledged increments exactly (an increment lost in flight is sent again with the same call
 * ids, and the cluster applies it once); the killed member, restarted, rejoins, and once another
 * member is killed the two left (it among them) still serve every acknowledged row and take writes.
 * Prints its seed; replay the rows written with -Dbellows.test.seed=N.
 */
@ExtendWith(SeedExtension.class)
class ClusterFailoverTest {
  private static final int WRITERS = 3;
  private static final int ACKED_BEFORE_KILL = 150;
  private static final int ACKED_AFTER_KILL = 150;
  private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(120);

  @TempDir(cleanup = CleanupMode.ON_SUCCESS) // a failed run keeps the members' logs and thread dumps
  Path dir;

  @Test
  void killingTheLeaderLosesNoAcknowledgedWriteAndTheSurvivorsTakeWritesAgain(Seed seed) throws Exception {
    LocalCluster cluster = LocalCluster.start(dir, 3, false);
    List<ClusterMember> members = cluster.members;
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1); // the writers and their watcher
    RemoteOptions options = RemoteOptions.defaults().withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500));
    try (Bellows db = RemoteEngine.connect(members.stream().map(m -> m.clientAddress).toList(), options)) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = db.getTable("t");

      Map<String, String> acked = new ConcurrentHashMap<>();
      AtomicInteger ackedCount = new AtomicInteger();
      AtomicInteger unknown = new AtomicInteger();
      AtomicInteger ackedIncrements = new AtomicInteger();
      AtomicInteger unknownIncrements = new AtomicInteger();
      AtomicLong killedAt = new AtomicLong();
      AtomicLong firstAckAfterKill = new AtomicLong();
      AtomicBoolean stop = new AtomicBoolean();
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        Random rnd = seed.random(w);
        writers.add(pool.submit(() -> {
          for (int i = 0; !stop.get(); i++) {
            String row = String.format("%08x-w%d-%05d", rnd.nextInt(), writer, i);
            String value = "v" + rnd.nextLong();
            long started = System.nanoTime();
            if (i % 4 == 3) { // an atomic operation: sent again with the same ids after a failure in flight
              try {
                t.incrementColumnValue(Bytes.of("counter"), Bytes.of("f"), Bytes.of("n"), 1);
                ackedIncrements.incrementAndGet();
              } catch (RemoteCluster.OutcomeUnknownException e) {
                unknownIncrements.incrementAndGet();
              }
              continue;
            }
            try {
              t.put(new Put(Bytes.of(row)).addColumn(Bytes.of("f"), Bytes.of("q"), Bytes.of(value)));
            } catch (RemoteCluster.OutcomeUnknownException e) {
              unknown.incrementAndGet(); // a put is retried, so this is not expected; counted if it happens
              continue;
            }
            acked.put(row, value);
            synchronized (ackedCount) {
              ackedCount.incrementAndGet();
              ackedCount.notifyAll();
            }
            long k = killedAt.get();
            if (k != 0 && started > k) {
              firstAckAfterKill.compareAndSet(0, System.nanoTime());
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
      awaitCount(ackedCount, ACKED_BEFORE_KILL, writers);

      ClusterMember leader = cluster.leaderOf("t");
      int before = ackedCount.get();
      killedAt.set(System.nanoTime());
      leader.kill();
      awaitCount(ackedCount, before + ACKED_AFTER_KILL, writers);
      stop.set(true);
      for (Future<?> f : writers) {
        f.get(2, TimeUnit.MINUTES);
      }
      System.out.printf("%s: killed the leader %s after %d acknowledged writes; writes back %d ms after the kill;"
          + " %d acknowledged in all, %d with an unknown outcome; increments: %d acknowledged, %d unknown%n", seed,
          leader.id, before, TimeUnit.NANOSECONDS.toMillis(firstAckAfterKill.get() - killedAt.get()), acked.size(),
          unknown.get(), ackedIncrements.get(), unknownIncrements.get());

      assertEveryRow(t, acked, seed);
      // Every increment was acknowledged (a lost one was sent again with its ids) and applied once.
      long counter = Bytes.getLong(t.get(new Get(Bytes.of("counter"))).getValue(Bytes.of("f"), Bytes.of("n")), 0);
      assertThat(unknownIncrements.get()).as("%s: increments of unknown outcome", seed).isZero();
      assertThat(counter).as("%s: the counter", seed).isEqualTo(ackedIncrements.get());

      // The killed member rejoins; with another member killed, it is part of every majority left.
      leader.start();
      ClusterMember other = members.stream().filter(m -> m != leader).findFirst().orElseThrow();
      other.kill();
      t.put(new Put(Bytes.of("after-rejoin")).addColumn(Bytes.of("f"), Bytes.of("q"), Bytes.of("yes")));
      assertEveryRow(t, acked, seed);
      assertThat(Bytes.str(t.get(new Get(Bytes.of("after-rejoin"))).getValue(Bytes.of("f"), Bytes.of("q"))))
          .isEqualTo("yes");
    } catch (Throwable e) {
      ClusterMember.diagnose(members, e);
      throw e;
    } finally {
      pool.shutdownNow();
      cluster.close();
    }
  }

  private static void assertEveryRow(Table t, Map<String, String> acked, Seed seed) {
    for (Map.Entry<String, String> e : acked.entrySet()) {
      Result r = t.get(new Get(Bytes.of(e.getKey())));
      assertThat(Bytes.str(r.getValue(Bytes.of("f"), Bytes.of("q")))).as("%s: acknowledged row %s", seed, e.getKey())
          .isEqualTo(e.getValue());
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
