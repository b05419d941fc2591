package io.bellows.cluster.region;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Condition;
import io.bellows.atomic.Outcome;
import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.cluster.region.RegionCluster.Replica;
import io.bellows.engine.CallId;
import io.bellows.region.Region;
import io.bellows.region.RegionScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * One region replicated on three Raft nodes in one JVM. Concurrent clients put, delete, increment
 * and check-and-mutate through whichever replica leads, and every answer is compared with a
 * reference model: each client's own rows exactly (a write whose outcome is unknown, for its
 * leader stopped with it pending, is settled by the next write to the row: the row must then be as
 * if it had applied or as if it had not); a counter that every client increments (every
 * acknowledged increment returns a value no other did, and the final value is the sum of the
 * acknowledged increments plus some of the unknown ones); a chain of check-and-mutates that every
 * client extends (each link won by exactly one client, the one told it won). Afterwards every
 * replica holds the same cells with the same sequence ids. Prints its seed; replay with
 * -Dbellows.test.seed=N (the operations replay, not the interleaving).
 */
@ExtendWith(SeedExtension.class)
@Timeout(300)
class ReplicatedRegionTest {
  private static final byte[] F = Bytes.of("f");
  private static final TableDescriptor TABLE = TableDescriptor.builder("t").family("f").build();
  private static final int CLIENTS = 3;
  private static final int OPS = 120;
  private static final int ROWS = 6;
  private static final byte[] COUNTER = Bytes.of("counter");
  private static final byte[] CHAIN = Bytes.of("chain");
  private static final byte[] N = Bytes.of("n");
  private static final byte[] V = Bytes.of("v");

  @TempDir Path dir;
  private RegionCluster cluster;

  /** Every value an acknowledged counter increment returned. */
  private final Set<Long> counterValues = ConcurrentHashMap.newKeySet();
  private final AtomicLong counterSure = new AtomicLong();
  /** Links of the chain: won for certain (link → client), and maybe won (an outcome unknown). */
  private final Map<Long, Integer> chainWon = new ConcurrentHashMap<>();
  private final Map<Long, Set<Integer>> chainMaybe = new ConcurrentHashMap<>();
  /** Operations acknowledged after the leader was stopped. */
  private final AtomicBoolean leaderStopped = new AtomicBoolean();
  private final AtomicInteger afterStop = new AtomicInteger();
  /** Writes whose outcome was unknown (their leader stopped with them pending). */
  private final AtomicInteger unknown = new AtomicInteger();

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void concurrentClientsAgreeWithTheModelAndEveryReplicaEndsWithTheSameCells(Seed seed) throws Exception {
    cluster = new RegionCluster(dir, TABLE);
    run(seed, null);
    assertEveryReplicaHoldsTheSameCells();
  }

  @Test
  void aLeaderStoppedMidRunLosesNothingAcknowledgedAndItsSuccessorTakesTheWrites(Seed seed) throws Exception {
    cluster = new RegionCluster(dir, TABLE);
    CountDownLatch stopAt = new CountDownLatch(CLIENTS * OPS / 3);
    String stopped = run(seed, stopAt);
    assertThat(afterStop.get()).as("operations acknowledged by the successor").isPositive();
    cluster.restart(stopped); // it catches up from the log
    assertEveryReplicaHoldsTheSameCells();
  }

  @Test
  void aReplicaRestartedAfterAFlushAndACheckpointReplaysOnlyTheLogAfterIt(Seed seed) throws Exception {
    cluster = new RegionCluster(dir, TABLE);
    Random rnd = seed.random();
    Replica leader = write(rnd, "a", 200);
    Replica follower = cluster.live().stream().filter(r -> r != leader).findFirst().orElseThrow();
    follower.applier().awaitIndex(leader.applier().last());
    follower.region().flush(true);
    long checkpoint = follower.node().checkpoint(RegionCluster.GROUP);
    assertThat(checkpoint).isEqualTo(follower.applier().last());
    write(rnd, "b", 100);
    follower.applier().awaitIndex(leader.applier().last());
    follower.region().flush(true); // its files hold "b" too, the log's checkpoint does not say so
    write(rnd, "c", 50);
    follower.applier().awaitIndex(leader.applier().last());
    cluster.stop(follower.id()); // what "c" put in its memory is lost

    Replica restarted = cluster.restart(follower.id());
    assertEveryReplicaHoldsTheSameCells();
    // The log replayed from after the checkpoint: "b" and "c" and the last write, no more; the
    // stores took only what their files did not hold ("c" and the last write).
    assertThat(restarted.applier().first()).isGreaterThan(checkpoint);
    assertThat(restarted.applier().handed()).isEqualTo(100 + 50 + 1);
    assertThat(restarted.region().stores().get("f").memStoreSize().cellCount()).isEqualTo(50 + 1);
  }

  @Test
  void aReplicaDownWhileTheOthersPurgedTheirLogsInstallsTheLeadersCheckpointAndFollowsNewWrites(Seed seed)
      throws Exception {
    cluster = new RegionCluster(dir, TABLE, s -> s.withLogRetention(64 * 1024, 16)); // small log files, dropped often
    Random rnd = seed.random();
    Replica leader = write(rnd, "a", 20);
    Replica down = cluster.live().stream().filter(r -> r != leader).findFirst().orElseThrow();
    down.applier().awaitIndex(leader.applier().last());
    down.region().flush(true);
    cluster.stop(down.id());
    for (int round = 0; round < 3; round++) { // 3 x 150 KiB: several closed log files, each flushed and checkpointed
      Replica on = write(rnd, "b" + round + "-", 150, 1024);
      for (Replica r : cluster.live()) {
        r.applier().awaitIndex(on.applier().last());
        r.region().flush(true);
        assertThat(r.node().checkpoint(RegionCluster.GROUP)).as(r.id()).isEqualTo(r.applier().last());
      }
    }
    write(rnd, "c", 10); // purges run as the log moves on

    Replica back = cluster.restart(down.id()); // its log ends below the first entry the others hold
    assertEveryReplicaHoldsTheSameCells(); // the same cells, with the same sequence ids
    assertThat(back.applier().installed()).as("the checkpoint it installed").isNotNull();
    assertThat(back.installer().installs()).isPositive();
    // It follows the writes after the checkpoint, flushes on its own files, and a restart opens them.
    write(rnd, "d", 20);
    back.region().flush(true);
    assertEveryReplicaHoldsTheSameCells();
    assertThat(back.applier().first()).as("the first entry handed after the install")
        .isGreaterThan(back.applier().installed().index());
    cluster.stop(back.id());
    cluster.restart(back.id());
    assertEveryReplicaHoldsTheSameCells();
  }

  /** {@code n} puts of distinct cells through the leader; returns the replica that took the last. */
  private Replica write(Random rnd, String prefix, int n) throws Exception {
    return write(rnd, prefix, n, 0);
  }

  /** As {@link #write(Random, String, int)}, each value padded to {@code pad} bytes more. */
  private Replica write(Random rnd, String prefix, int n, int pad) throws Exception {
    Replica on = null;
    for (int i = 0; i < n; i++) {
      byte[] row = Bytes.of(prefix + i);
      byte[] value = Bytes.of("v" + rnd.nextInt(1_000_000) + "x".repeat(pad));
      on = cluster.onLeaderReplica(region -> {
        region.mutate(row, List.of(Cells.put(row, F, N, Long.MAX_VALUE, value)), -1, null);
        return null;
      });
    }
    return on;
  }

  /** Runs the clients (stopping the leader once {@code stopAt} reaches zero, if given), then checks the model. */
  private String run(Seed seed, CountDownLatch stopAt) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    List<Client> clients = new ArrayList<>();
    List<Future<?>> done = new ArrayList<>();
    CountDownLatch progress = stopAt == null ? new CountDownLatch(0) : stopAt;
    for (int i = 0; i < CLIENTS; i++) {
      Client c = new Client(i, seed.random(i), progress);
      clients.add(c);
      done.add(pool.submit(() -> {
        c.run();
        return null;
      }));
    }
    String stopped = null;
    try {
      if (stopAt != null) {
        assertThat(stopAt.await(RegionCluster.WAIT_MS * 4, TimeUnit.MILLISECONDS)).isTrue();
        stopped = cluster.leaderOtherThan(null).id();
        leaderStopped.set(true);
        cluster.stop(stopped);
      }
      for (Future<?> f : done) {
        f.get(RegionCluster.WAIT_MS * 8, TimeUnit.MILLISECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    for (Client c : clients) {
      c.checkEveryRow();
    }
    checkCounter();
    checkChain();
    System.out.println("[model] " + CLIENTS * OPS + " operations, " + unknown.get() + " of unknown outcome, "
        + afterStop.get() + " after the leader " + stopped + " stopped");
    return stopped;
  }

  /** One client: its own rows, its model of them, and its share of the counter and the chain. */
  private final class Client {
    private final int id;
    private final Random rnd;
    private final CountDownLatch progress;
    /** Row → column → value (the counter column "n" as a decimal). */
    private final Map<String, Map<String, String>> model = new HashMap<>();
    /** A row whose last write's outcome is unknown → the row as it would be had the write applied. */
    private final Map<String, Map<String, String>> unsettled = new HashMap<>();
    /** The client's own timestamps: its rows' versions never tie. */
    private long clock;
    /** The id of the client's last named call (its increments). */
    private long calls;

    Client(int id, Random rnd, CountDownLatch progress) {
      this.id = id;
      this.rnd = rnd;
      this.progress = progress;
    }

    void run() throws Exception {
      for (int i = 0; i < OPS; i++) {
        int pick = rnd.nextInt(100);
        if (pick < 15) {
          incrementCounter();
        } else if (pick < 30) {
          extendChain();
        } else {
          ownRow("c" + id + "-r" + rnd.nextInt(ROWS), pick);
        }
        if (leaderStopped.get()) {
          afterStop.incrementAndGet();
        }
        progress.countDown();
      }
    }

    private void ownRow(String row, int pick) throws Exception {
      settle(row);
      byte[] r = Bytes.of(row);
      Map<String, String> before = model.computeIfAbsent(row, k -> new TreeMap<>());
      Map<String, String> after = new TreeMap<>(before);
      String q = "q" + rnd.nextInt(4);
      Op op;
      if (pick < 55) {
        String value = "v" + rnd.nextInt(1000);
        long ts = ++clock;
        after.put(q, value);
        op = region -> {
          region.mutate(r, List.of(Cells.put(r, F, Bytes.of(q), ts, Bytes.of(value))), -1, null);
          return null;
        };
      } else if (pick < 65) {
        long ts = ++clock;
        after.remove(q);
        op = region -> {
          region.mutate(r, List.of(Cells.create(r, F, Bytes.of(q), ts, CellType.DELETE_COLUMN, Bytes.EMPTY)), -1, null);
          return null;
        };
      } else if (pick < 80) {
        long amount = 1 + rnd.nextInt(9);
        long expected = Long.parseLong(before.getOrDefault("n", "0")) + amount;
        after.put("n", Long.toString(expected));
        op = region -> {
          Outcome o = region.mutateRow(r, null, List.of(), -1, List.of(ColumnUpdate.increment(F, N, amount)), null, true);
          assertThat(Bytes.getLong(o.values().get(0).array(), o.values().get(0).valueOffset())).isEqualTo(expected);
          return null;
        };
      } else {
        String target = "q" + rnd.nextInt(4);
        String value = "w" + rnd.nextInt(1000);
        long ts = ++clock;
        Condition condition;
        boolean holds;
        if (rnd.nextBoolean()) {
          condition = Condition.ifAbsent(F, Bytes.of(q));
          holds = !before.containsKey(q);
        } else {
          String expected = before.containsKey(q) && rnd.nextInt(4) > 0 ? before.get(q) : "v" + rnd.nextInt(1000);
          condition = Condition.ifEquals(F, Bytes.of(q), Bytes.of(expected));
          holds = expected.equals(before.get(q));
        }
        if (holds) {
          after.put(target, value);
        }
        op = region -> {
          Outcome o = region.mutateRow(r, condition, List.of(Cells.put(r, F, Bytes.of(target), ts, Bytes.of(value))), -1,
              List.of(), null, false);
          assertThat(o.applied()).as("%s: check-and-mutate of %s on %s", id, row, before).isEqualTo(holds);
          return null;
        };
      }
      Replica on;
      try {
        on = cluster.onLeaderReplica(op::apply);
      } catch (io.bellows.util.StorageException e) {
        unknown.incrementAndGet();
        unsettled.put(row, after); // settled by the next write to the row
        return;
      }
      model.put(row, after);
      Map<String, String> seen = readRow(on.region(), r);
      if (seen != null) {
        assertThat(seen).as("row %s on %s after its write", row, on.id()).isEqualTo(after);
      }
    }

    /**
     * Settles a row whose last write's outcome is unknown: writes to it (through a leader that
     * applied everything committed before its term, and everything before this write in its own),
     * then the row must be as if the unknown write had applied, or as if it had not.
     */
    private void settle(String row) throws Exception {
      Map<String, String> ifApplied = unsettled.remove(row);
      if (ifApplied == null) {
        return;
      }
      byte[] r = Bytes.of(row);
      while (true) {
        long ts = ++clock;
        String probe = "p" + ts;
        Replica on;
        try {
          on = cluster.onLeaderReplica(region -> {
            region.mutate(r, List.of(Cells.put(r, F, Bytes.of("p"), ts, Bytes.of(probe))), -1, null);
            return null;
          });
        } catch (io.bellows.util.StorageException e) {
          unknown.incrementAndGet();
          continue; // a later probe, with a higher timestamp, settles this one too
        }
        Map<String, String> seen = readRow(on.region(), r);
        if (seen == null) {
          continue;
        }
        Map<String, String> applied = new TreeMap<>(ifApplied);
        applied.put("p", probe);
        Map<String, String> notApplied = new TreeMap<>(model.computeIfAbsent(row, k -> new TreeMap<>()));
        notApplied.put("p", probe);
        assertThat(seen).as("row %s after a write of unknown outcome", row).isIn(applied, notApplied);
        model.put(row, seen);
        return;
      }
    }

    /**
     * An increment named by this client's next call id: one whose outcome is unknown is sent again
     * with the same ids until it is answered, and applies once.
     */
    private void incrementCounter() throws Exception {
      long amount = 1 + rnd.nextInt(5);
      CallId call = new CallId(id, 0x636f756e746572L, ++calls, calls);
      Outcome o = null;
      for (int attempt = 0; o == null; attempt++) {
        try {
          o = cluster.onLeader(region -> replicaOf(region).log().answerOnce(call, 1, () -> region.mutateRow(COUNTER,
              null, List.of(), -1, List.of(ColumnUpdate.increment(F, N, amount)), null, true)));
        } catch (io.bellows.util.StorageException e) {
          unknown.incrementAndGet();
          assertThat(attempt).as("sendings of %s", call).isLessThan(20);
        }
      }
      long value = Bytes.getLong(o.values().get(0).array(), o.values().get(0).valueOffset());
      assertThat(counterValues.add(value)).as("counter value %d returned twice", value).isTrue();
      counterSure.addAndGet(amount);
    }

    private void extendChain() throws Exception {
      long current;
      current = cluster.onLeader(region -> longAt(region, CHAIN, V));
      long link = current + 1;
      byte[] owner = Bytes.of("o" + link);
      Condition condition = current == 0 ? Condition.ifAbsent(F, V) : Condition.ifEquals(F, V, Bytes.toBytes(current));
      Outcome o;
      try {
        o = cluster.onLeader(region -> region.mutateRow(CHAIN, condition, List.of(
            Cells.put(CHAIN, F, V, link, Bytes.toBytes(link)),
            Cells.put(CHAIN, F, owner, link, Bytes.of(Integer.toString(id)))), -1, List.of(), null, false));
      } catch (io.bellows.util.StorageException e) {
        unknown.incrementAndGet();
        chainMaybe.computeIfAbsent(link, k -> ConcurrentHashMap.newKeySet()).add(id);
        return;
      }
      if (o.applied()) {
        Integer before = chainWon.putIfAbsent(link, id);
        assertThat(before).as("link %d won by %d and by %d", link, before, id).isNull();
      }
    }

    /** At the end: every row read on the leader is as the model says (unsettled rows settled first). */
    void checkEveryRow() throws Exception {
      for (String row : List.copyOf(unsettled.keySet())) {
        settle(row);
      }
      for (Map.Entry<String, Map<String, String>> e : model.entrySet()) {
        byte[] r = Bytes.of(e.getKey());
        Map<String, String> seen = cluster.onLeader(region -> readRow(region, r));
        assertThat(seen).as("row %s", e.getKey()).isEqualTo(e.getValue());
      }
    }
  }

  private Replica replicaOf(Region region) {
    for (Replica r : cluster.live()) {
      if (r.region() == region) {
        return r;
      }
    }
    throw new io.bellows.region.RegionClosedException("the replica stopped");
  }

  /** A write through the leader. */
  interface Op {
    Object apply(Region region);
  }

  private void checkCounter() throws Exception {
    long value = cluster.onLeader(region -> longAt(region, COUNTER, N));
    assertThat(value).as("the counter: every increment applied once").isEqualTo(counterSure.get());
    assertThat(counterValues).allSatisfy(v -> assertThat(v).isLessThanOrEqualTo(value));
  }

  private void checkChain() throws Exception {
    Map<String, String> row = cluster.onLeader(region -> readRow(region, CHAIN));
    long length = row.containsKey("v") ? Long.parseLong(row.get("v")) : 0;
    assertThat(row).hasSize(length == 0 ? 0 : (int) length + 1); // "v" and one owner per link
    for (long link = 1; link <= length; link++) {
      String owner = row.get("o" + link);
      assertThat(owner).as("owner of link %d", link).isNotNull();
      Integer won = chainWon.get(link);
      if (won != null) {
        assertThat(owner).as("link %d", link).isEqualTo(Integer.toString(won));
      } else {
        assertThat(chainMaybe.getOrDefault(link, Set.of())).as("link %d owned by %s", link, owner)
            .contains(Integer.parseInt(owner));
      }
    }
    assertThat(chainWon.keySet()).allSatisfy(link -> assertThat(link).isLessThanOrEqualTo(length));
  }

  private void assertEveryReplicaHoldsTheSameCells() throws Exception {
    // One more write: once every replica applied it, each holds everything before it.
    Replica leader = cluster.onLeaderReplica(region -> {
      region.mutate(Bytes.of("zz"), List.of(Cells.put(Bytes.of("zz"), F, N, 1, Bytes.of("end"))), -1, null);
      return null;
    });
    long last = leader.applier().last();
    List<String> expected = RegionCluster.contents(leader.region());
    assertThat(expected).hasSizeGreaterThan(CLIENTS * ROWS);
    for (Replica r : cluster.live()) {
      r.applier().awaitIndex(last);
      assertThat(RegionCluster.contents(r.region())).as(r.id()).isEqualTo(expected);
    }
    assertThat(cluster.live()).hasSize(3);
  }

  /** The row's newest values (the column "n" and the chain's "v" as decimals); null if the region closed. */
  private static Map<String, String> readRow(Region region, byte[] row) {
    Map<String, String> out = new TreeMap<>();
    try (RegionScanner s = region.scanner(ScanQuery.builder().singleRow(row).build())) {
      List<Cell> cells = new ArrayList<>();
      s.nextRow(cells);
      for (Cell c : cells) {
        String q = Bytes.str(c.qualifier());
        boolean number = q.equals("n") || (q.equals("v") && java.util.Arrays.equals(row, CHAIN));
        out.put(q, number ? Long.toString(Bytes.getLong(c.array(), c.valueOffset())) : Bytes.str(c.value()));
      }
    } catch (io.bellows.region.RegionClosedException e) {
      return null;
    }
    return out;
  }

  private static long longAt(Region region, byte[] row, byte[] column) {
    try (RegionScanner s = region.scanner(ScanQuery.builder().singleRow(row).addColumn(F, column).build())) {
      List<Cell> cells = new ArrayList<>();
      s.nextRow(cells);
      return cells.isEmpty() ? 0 : Bytes.getLong(cells.get(0).array(), cells.get(0).valueOffset());
    }
  }
}
