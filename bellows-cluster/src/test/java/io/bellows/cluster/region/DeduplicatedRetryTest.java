package io.bellows.cluster.region;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Outcome;
import io.bellows.cell.Cell;
import io.bellows.cluster.region.RegionCluster.Replica;
import io.bellows.engine.CallId;
import io.bellows.region.Region;
import io.bellows.region.RegionScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three replicas in one JVM ({@link RegionCluster}): an increment named by a call id whose leader
 * stopped with it pending (committed, not yet answered) is sent again with the same ids through the
 * next leader and applies once; after every replica flushed, checkpointed and restarted, a retry of
 * it still applies nothing. The counter equals the sum of the acknowledged increments exactly.
 */
@Timeout(300)
class DeduplicatedRetryTest {
  private static final TableDescriptor TABLE = TableDescriptor.builder("t").family("f").build();
  private static final byte[] F = Bytes.of("f");
  private static final byte[] N = Bytes.of("n");
  private static final byte[] COUNTER = Bytes.of("counter");
  private static final long CLIENT = 0x00c0_ffee_0000_0001L;

  @TempDir Path dir;
  private RegionCluster cluster;
  private long lastCall;
  /** The lowest call the client still waits for, 0 if none but the next: the pending one, which the test retries to the end. */
  private long waitingFor;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private CallId next() {
    lastCall++;
    return new CallId(CLIENT, 2, lastCall, waitingFor == 0 ? lastCall : waitingFor);
  }

  /** The increment as the call {@code id} on {@code r}'s region, which must lead. */
  private static long incrementOn(Replica r, CallId id, long amount) {
    Outcome o = r.log().answerOnce(id, 1, () -> r.region().mutateRow(COUNTER, null, List.of(), -1,
        List.of(ColumnUpdate.increment(F, N, amount)), null, true));
    assertThat(o.applied()).isTrue();
    Cell c = o.values().get(0);
    return Bytes.getLong(c.array(), c.valueOffset());
  }

  /** The increment as the call {@code id} on whichever replica leads, sent again there until one takes it. */
  private long increment(CallId id, long amount) throws InterruptedException, TimeoutException {
    return cluster.onLeader(region -> incrementOn(replicaOf(region), id, amount));
  }

  private Replica replicaOf(Region region) {
    for (Replica r : cluster.live()) {
      if (r.region() == region) {
        return r;
      }
    }
    throw new IllegalStateException("no live replica holds that region");
  }

  private static long counter(Region region) {
    try (RegionScanner s = region.scanner(ScanQuery.builder().singleRow(COUNTER).addColumn(F, N).build())) {
      List<Cell> row = new ArrayList<>();
      s.nextRow(row);
      return Bytes.getLong(row.get(0).array(), row.get(0).valueOffset());
    }
  }

  @Test
  void anIncrementPendingOnAStoppedLeaderAppliesOnceThroughTheNextLeaderAndAfterARestart() throws Exception {
    cluster = new RegionCluster(dir, TABLE);
    long sum = 0;
    for (int i = 1; i <= 5; i++) {
      sum += i;
      assertThat(increment(next(), i)).isEqualTo(sum);
    }

    // The leader takes the next increment; the followers apply it, the leader's own apply is held
    // back, so its writer has no answer when the leader stops.
    Replica leader = cluster.leaderOtherThan(null);
    long index = leader.applier().last() + 1;
    leader.applier().holdFrom(index);
    CallId pending = next();
    waitingFor = pending.call(); // the table must keep its answer for the retries below
    CompletableFuture<Long> first = CompletableFuture.supplyAsync(() -> incrementOn(leader, pending, 100));
    for (Replica r : cluster.live()) {
      if (r != leader) {
        r.applier().awaitIndex(index);
      }
    }
    CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> cluster.stop(leader.id()));
    try {
      first.get(RegionCluster.WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // the expected case: the leader stopped with the write pending, its outcome unknown to the writer
    } finally {
      leader.applier().release(); // the stopping node applies what it committed before it ends
    }
    stopped.get(RegionCluster.WAIT_MS, TimeUnit.MILLISECONDS);
    Long firstAnswer = first.isDone() && !first.isCompletedExceptionally() ? first.join() : null;

    // The client's retry, with the same ids, through the next leader: the first answer, applied once.
    sum += 100;
    long retried = increment(pending, 100);
    assertThat(retried).isEqualTo(sum);
    if (firstAnswer != null) {
      assertThat(firstAnswer).isEqualTo(retried);
    }
    assertThat(increment(pending, 100)).isEqualTo(sum); // and again
    for (int i = 1; i <= 3; i++) {
      sum += i;
      assertThat(increment(next(), i)).isEqualTo(sum);
    }
    Replica now = cluster.leaderOtherThan(null);
    assertThat(counter(now.region())).isEqualTo(sum);

    // The stopped leader comes back and catches up; then every replica flushes and checkpoints (the
    // logs may drop everything up to here) and the whole group restarts: the answered calls come
    // back from each replica's file, not from the log.
    cluster.restart(leader.id());
    long last = now.applier().last();
    for (Replica r : cluster.live()) {
      r.applier().awaitIndex(last);
    }
    for (Replica r : cluster.live()) {
      r.region().flush(true);
      assertThat(r.node().checkpoint(RegionCluster.GROUP)).isGreaterThanOrEqualTo(last);
      assertThat(dir.resolve(r.id()).resolve(AnsweredCallsFile.NAME)).exists();
    }
    for (String id : RegionCluster.IDS) {
      cluster.stop(id);
    }
    for (String id : RegionCluster.IDS) {
      cluster.restart(id);
    }
    assertThat(increment(pending, 100)).isEqualTo(sum - 6); // its first answer, from before the last three
    sum += 7;
    assertThat(increment(next(), 7)).isEqualTo(sum);
    Replica after = cluster.leaderOtherThan(null);
    assertThat(counter(after.region())).isEqualTo(sum);
    for (Replica r : cluster.live()) {
      r.applier().awaitIndex(after.applier().last());
      assertThat(RegionCluster.contents(r.region())).isEqualTo(RegionCluster.contents(after.region()));
    }
  }
}
