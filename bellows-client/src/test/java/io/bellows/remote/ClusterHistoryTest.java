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
import io.bellows.testing.history.CounterModel;
import io.bellows.testing.history.CounterModel.Count;
import io.bellows.testing.history.CounterModel.Increment;
import io.bellows.testing.history.LinearizabilityChecker;
import io.bellows.testing.history.Operation;
import io.bellows.testing.history.RegisterModel;
import io.bellows.testing.history.RegisterModel.Cas;
import io.bellows.testing.history.RegisterModel.Read;
import io.bellows.testing.history.RegisterModel.Value;
import io.bellows.testing.history.RegisterModel.Write;
import io.bellows.util.Bytes;
import io.bellows.util.StorageException;
import io.bellows.wire.NotLeaderRefusal;
import io.bellows.wire.RemoteCallException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checked histories over server processes (docs/design/testing.md, "Checked histories"): three
 * {@code bellows server --cluster} processes; client threads, each with its own {@link
 * RemoteCluster}, put, read (linearizably) and check-and-put registers (one column of a row per
 * key) and increment and read a counter, and one reader per member asks that member alone; every call is recorded with its
 * invocation and answer, a write whose outcome the client cannot know (it failed in flight or ran
 * out of time) as of unknown outcome. A nemesis works in rounds: before each, the clients move to
 * fresh keys; then it SIGKILLs a member (the leader or any) and restarts it on its directory,
 * SIGSTOPs the leader until the others have taken calls and SIGCONTs it, or cuts a member (the
 * leader or any) off from the others through the members' test-only fault hook in the Raft
 * transport ({@code --test-faults}) and heals the cut, or hands the table's region's leadership to
 * another member through the clients' own call ({@link io.bellows.engine.Engine#moveLeader}, HBase's
 * {@code move}: Raft's leadership transfer), or moves a replica of it to a member holding none (the
 * same call; four members, three replicas a region), or splits the region holding the round's rows between
 * them online ({@link io.bellows.engine.Engine#split}). Each round's keys must be linearizable
 * ({@link LinearizabilityChecker}); at the end every key is read once more (that read joins its
 * history, which is checked again) and every acknowledged write must be there (each write also
 * puts a column of its own). The same workload with the members' reads served by any replica
 * without the read barrier must be found not linearizable.
 *
 * <p>Prints its seed (the operations, the faults and their targets replay with
 * -Dbellows.test.seed=N, not the timing), a line per round (with the fault's wall-clock time, which
 * the members' logs stamp too) and a summary. A few rounds in every build (one of each fault);
 * {@code -Dbellows.nemesis.rounds=N} runs N, and {@code -Dbellows.nemesis.faults=kill-leader,pause}
 * (any of kill-leader, kill-follower, pause, isolate-leader, isolate-follower, transfer-leader, split,
 * move-replica: a replica of the round's region moved to a member holding none, while the clients go on,
 * then its leadership) takes those faults in
 * turn instead of drawing them, to measure one kind's failover.
 */
@ExtendWith(SeedExtension.class)
class ClusterHistoryTest {
  private static final String TABLE = "h";
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");
  private static final int CLIENTS = 4;
  private static final int KEYS = 3;
  /** The suffix of each round's counter row (incremented by 1, read). */
  private static final String COUNTER = "-n";
  private static final int ROUNDS = Integer.getInteger("bellows.nemesis.rounds", 3);
  /**
   * Server processes: four, one more than a region's replicas, so a replica can move to a member
   * holding none; meta, a group of all four, keeps a majority through any one fault.
   */
  private static final int MEMBERS = Integer.getInteger("bellows.nemesis.members", 4);
  /** The faults to take in turn (kind, and whether on the leader), or empty: drawn from the seed. */
  private static final List<Map.Entry<Kind, Boolean>> FAULTS = faults(System.getProperty("bellows.nemesis.faults", ""));
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");
  /** Calls of the cluster clients to complete before a fault, under it, and after it healed. */
  private static final int CALLS_PER_PHASE = 30;
  /** The longest a healthy phase may take before the test fails for want of progress. */
  private static final long PHASE_MAX_MS = 60_000;
  /** The longest a fault is held: it is healed once the others took CALLS_PER_PHASE calls, or then. */
  private static final long FAULT_MAX_MS = 15_000;
  private static final RemoteOptions OPTIONS = RemoteOptions.defaults().withDataDeadline(Duration.ofSeconds(4))
      .withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500));
  private static final RemoteOptions ONE_SERVER = OPTIONS.withRetries(1, Duration.ofMillis(10), Duration.ofMillis(10));

  @TempDir static Path dir;
  private static LocalCluster cluster;
  /** The clients' engines (of the test running now): how many attempts their calls took. */
  private static final List<RemoteCluster> ENGINES = new ArrayList<>();
  /** What the fault file holds besides the nemesis' cut ("stale-reads" for the negative run). */
  private static volatile String standing = "";

  enum Kind { KILL, PAUSE, PARTITION, TRANSFER, SPLIT, MOVE }

  /**
   * A fault the nemesis injected: what, on whom, and whether that member led the table's region (a
   * transfer's target is the member the leadership goes to, {@code detail} what came of it).
   */
  private record Fault(Kind kind, ClusterMember target, boolean leader, String detail) {
    @Override
    public String toString() {
      String verb = switch (kind) {
        case KILL -> "SIGKILL";
        case PAUSE -> "SIGSTOP";
        case PARTITION -> "isolate";
        case TRANSFER -> "transfer the leadership to";
        case SPLIT -> "split the round's region, led by";
        case MOVE -> "move a replica of the round's region to";
      };
      return verb + " " + target.id + (leader ? " (leader)" : "") + detail;
    }
  }

  /** One round's calls and verdict, and how long writes were unavailable after its fault (-1: none came back). */
  private record Round(Fault fault, LocalTime at, List<Operation> ops, Map<String, Set<Long>> acked,
      LinearizabilityChecker.Result result, long gapMs, long heldMs, int unknown, Map<String, Integer> unknownCauses) {}

  /** The faults a comma-separated list names (see the class comment), in its order. */
  private static List<Map.Entry<Kind, Boolean>> faults(String list) {
    List<Map.Entry<Kind, Boolean>> out = new ArrayList<>();
    for (String name : list.split(",")) {
      switch (name.strip()) {
        case "" -> { }
        case "kill-leader" -> out.add(Map.entry(Kind.KILL, true));
        case "kill-follower" -> out.add(Map.entry(Kind.KILL, false));
        case "pause" -> out.add(Map.entry(Kind.PAUSE, true));
        case "isolate-leader" -> out.add(Map.entry(Kind.PARTITION, true));
        case "isolate-follower" -> out.add(Map.entry(Kind.PARTITION, false));
        case "transfer-leader" -> out.add(Map.entry(Kind.TRANSFER, false));
        case "split" -> out.add(Map.entry(Kind.SPLIT, true));
        case "move-replica" -> out.add(Map.entry(Kind.MOVE, false));
        default -> throw new IllegalArgumentException("bellows.nemesis.faults: unknown fault '" + name.strip()
            + "' (kill-leader, kill-follower, pause, isolate-leader, isolate-follower, transfer-leader, split, move-replica)");
      }
    }
    return out;
  }

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = LocalCluster.start(dir.resolve("cluster"), MEMBERS, true);
    System.out.println("[nemesis] the members' directories and logs: " + dir.resolve("cluster"));
    // Meta's first election may take a while on a busy machine: the table waits for it as long as a phase may.
    try (Bellows db = RemoteEngine.connect(cluster.addresses(), OPTIONS.withDataDeadline(Duration.ofMillis(PHASE_MAX_MS)))) {
      db.createTable(TableDescriptor.builder(TABLE).family("f").build());
    }
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void everyKeyIsLinearizableAndNoAcknowledgedWriteIsLostUnderTheNemesis(Seed seed) throws Exception {
    Random nemesis = seed.random(1000);
    List<Kind> kinds = new ArrayList<>(List.of(Kind.values()));
    Collections.shuffle(kinds, nemesis);
    List<Operation> all = new ArrayList<>();
    Map<String, Set<Long>> acked = new LinkedHashMap<>();
    List<Round> rounds = new ArrayList<>();
    List<CallStats.Snapshot> roundAttempts = new ArrayList<>();
    int acknowledged = 0;
    List<Table> tables = new ArrayList<>();
    List<Bellows> clients = openClients(tables);
    try {
      for (int r = 0; r < ROUNDS; r++) {
        Kind kind;
        boolean onLeader;
        if (FAULTS.isEmpty()) {
          kind = r < kinds.size() ? kinds.get(r) : kinds.get(nemesis.nextInt(kinds.size()));
          onLeader = kind == Kind.PAUSE || kind == Kind.SPLIT || (kind != Kind.TRANSFER && nemesis.nextBoolean());
        } else {
          kind = FAULTS.get(r % FAULTS.size()).getKey();
          onLeader = FAULTS.get(r % FAULTS.size()).getValue();
        }
        CallStats.Snapshot before = callStats();
        Round round = round(seed, r, "r" + r, tables, kind, onLeader, nemesis);
        CallStats.Snapshot attempts = callStats().minus(before);
        rounds.add(round);
        roundAttempts.add(attempts);
        all.addAll(round.ops());
        acked.putAll(round.acked());
        System.out.printf("[nemesis] round %d/%d: %s at %s, held %d ms; writes back %s after it; %d calls (%d of"
            + " unknown outcome%s), by attempts %s; %s%n", r + 1, ROUNDS, round.fault(), CLOCK.format(round.at()),
            round.heldMs(), round.gapMs() < 0 ? "not" : round.gapMs() + " ms", round.ops().size(), round.unknown(),
            round.unknownCauses().isEmpty() ? "" : ": " + round.unknownCauses(), attempts,
            round.result().linearizable() ? "linearizable" : "NOT linearizable");
        assertThat(round.result().linearizable()).as("%s, round %d (%s): %s", seed, r + 1, round.fault(),
            round.result().describe()).isTrue();
      }

      // The end: every key read once more (joining its history), every acknowledged write still there.
      Table t = tables.get(0);
      for (Map.Entry<String, Set<Long>> e : acked.entrySet()) {
        long invoked = System.nanoTime();
        Result row = t.get(new Get(Bytes.of(e.getKey())));
        long done = System.nanoTime();
        all.add(Operation.completed(-1, e.getKey(), invoked, done, new Read(), new Value(value(row.getValue(F, Q)))));
        for (long v : e.getValue()) {
          assertThat(value(row.getValue(F, audit(v)))).as("%s: the acknowledged write of %d to %s", seed, v, e.getKey())
              .isEqualTo(v);
          acknowledged++;
        }
      }
      for (String row : all.stream().map(o -> (String) o.key()).filter(k -> k.endsWith(COUNTER)).distinct().toList()) {
        long invoked = System.nanoTime();
        Long n = value(t.get(new Get(Bytes.of(row)).addColumn(F, Q)).getValue(F, Q));
        all.add(Operation.completed(-1, row, invoked, System.nanoTime(), new CounterModel.Read(), new Count(n)));
      }
    } finally {
      clients.forEach(Bellows::close);
    }
    LinearizabilityChecker.Result verdict = check(all);
    assertThat(verdict.linearizable()).as("%s, with the final reads: %s", seed, verdict.describe()).isTrue();
    summary(seed, rounds, roundAttempts, all.size(), acknowledged);
  }

  /** Every client's attempts so far, added up. */
  private static CallStats.Snapshot callStats() {
    CallStats.Snapshot sum = CallStats.none();
    for (RemoteCluster e : ENGINES) {
      sum = sum.plus(e.callStats().snapshot());
    }
    return sum;
  }

  @Test
  void readsWithoutTheLeadersBarrierAreFoundNotLinearizable(Seed seed) throws Exception {
    Random nemesis = seed.random(2000);
    List<Table> tables = new ArrayList<>();
    List<Bellows> clients = openClients(tables);
    standing = "stale-reads\n"; // every member answers reads from its own replica
    cluster.faults(standing);
    try {
      for (int r = 0; r < 5; r++) {
        // A member cut off: its own reader reads what it held when the cut came (a follower), or the
        // others' readers read what they held while it took writes (the leader, until its lease ends).
        Round round = round(seed, r, "stale" + r, tables, Kind.PARTITION, null, nemesis);
        System.out.printf("[nemesis] stale reads, round %d: %s; %d calls; %s%n", r + 1, round.fault(),
            round.ops().size(), round.result().describe());
        if (!round.result().linearizable()) {
          return;
        }
      }
      throw new AssertionError(seed + ": reads served by any replica were not caught in 5 rounds");
    } finally {
      standing = "";
      cluster.faults("");
      clients.forEach(Bellows::close);
    }
  }

  /**
   * The cluster clients, each its own {@link RemoteCluster}, and their tables (looked up once: a
   * member restarted a moment ago may not know the table yet).
   */
  private static List<Bellows> openClients(List<Table> tables) throws InterruptedException {
    List<Bellows> clients = new ArrayList<>();
    ENGINES.clear();
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PHASE_MAX_MS);
    for (int c = 0; c < CLIENTS; c++) {
      RemoteCluster engine = RemoteCluster.open(cluster.addresses(), OPTIONS);
      ENGINES.add(engine);
      Bellows db = Bellows.over(engine);
      clients.add(db);
      while (tables.size() <= c) {
        try {
          tables.add(db.getTable(TABLE));
        } catch (StorageException e) {
          if (System.nanoTime() > end) {
            throw e;
          }
          Thread.sleep(50); // pacing: asked again until a member that knows the table answers
        }
      }
    }
    return clients;
  }

  /** One round on fresh keys: calls, the fault, calls under it, healing, calls after; then the check. */
  private static Round round(Seed seed, int r, String prefix, List<Table> clients, Kind kind, Boolean onLeader,
      Random nemesis) throws Exception {
    Recorder rec = new Recorder();
    Fault fault;
    long faultAt;
    LocalTime at;
    long heldMs;
    try (Workload w = new Workload(seed, r, prefix, clients, rec)) {
      w.require(rec.await(CALLS_PER_PHASE, PHASE_MAX_MS), "calls before the fault");
      // onLeader null: any member, the leader not looked up (with stale reads every member answers reads).
      // A transfer's target is a member other than the leader: the one the leadership goes to.
      // The leader of the region holding the round's rows (earlier rounds' splits left several regions).
      ClusterMember leader = onLeader == null && kind != Kind.TRANSFER ? null : cluster.leaderOf(TABLE, prefix + "-k0");
      List<ClusterMember> others = cluster.members.stream().filter(m -> m != leader).toList();
      ClusterMember target = Boolean.TRUE.equals(onLeader) ? leader : others.get(nemesis.nextInt(others.size()));
      if (kind == Kind.MOVE || kind == Kind.TRANSFER) {
        // A move's replica goes to a member holding none, then the leadership; a transfer's to one holding one.
        target = pick(prefix + "-k0", others, kind == Kind.TRANSFER, nemesis);
      }
      faultAt = System.nanoTime();
      at = LocalTime.now();
      String detail = "";
      switch (kind) {
        case KILL -> target.kill();
        case PAUSE -> target.pause();
        case PARTITION -> cluster.faults(standing + cluster.isolation(target));
        case TRANSFER -> detail = transfer(leader, target, prefix + "-k0");
        case SPLIT -> detail = split(prefix + "-k1");
        case MOVE -> detail = transfer(leader, target, prefix + "-k0");
      }
      fault = new Fault(kind, target, target == leader, detail);
      try {
        rec.await(CALLS_PER_PHASE, FAULT_MAX_MS); // the others take calls, or the fault is held this long
      } finally {
        heldMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - faultAt);
        switch (kind) {
          case KILL -> target.start();
          case PAUSE -> target.resume();
          case PARTITION -> cluster.faults(standing);
          case TRANSFER, SPLIT, MOVE -> { } // nothing to heal: the new leader, or the daughters, serve on
        }
      }
      w.require(rec.await(CALLS_PER_PHASE, PHASE_MAX_MS), "calls after healing " + fault);
    }
    List<Operation> ops = List.copyOf(rec.ops);
    long back = ops.stream().filter(o -> o.input() instanceof Write && o.outcomeKnown() && o.invokedAt() >= faultAt)
        .mapToLong(Operation::completedAt).min().orElse(-1);
    int unknown = (int) ops.stream().filter(o -> !o.outcomeKnown()).count();
    return new Round(fault, at, ops, Map.copyOf(rec.acked), check(ops),
        back < 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(back - faultAt), heldMs, unknown, new TreeMap<>(rec.causes));
  }

  /**
   * Hands the table's region's leadership from {@code leader} to {@code target} through a client of
   * the cluster's own (the call goes to any member, which asks the leader), while the workload's
   * clients go on; returns what came of it for the round's line ({@code " (from m1)"}, or why the
   * leadership stayed). A refusal is not the test's failure: the target may be behind after a
   * restart (the leader hands over only to a member holding its whole log) or the leader may have
   * changed meanwhile; the round's histories are checked either way.
   */
  private static String transfer(ClusterMember leader, ClusterMember target, String row) {
    try (Bellows mover = RemoteEngine.connect(cluster.addresses(), OPTIONS.withDataDeadline(Duration.ofSeconds(30)))) {
      io.bellows.engine.LeaderMove m = mover.moveLeader(TABLE, Bytes.of(row), target.id);
      return m.moved() ? " (from " + m.from() + ")" : " (it led already)";
    } catch (StorageException | IllegalArgumentException | IllegalStateException e) {
      return " (refused, the leadership stays with " + leader.id + ": " + e.getMessage() + ")";
    }
  }

  /**
   * A member of {@code candidates} that holds a replica of the table's region holding {@code row}
   * ({@code holding}) or holds none (as the members' status reports them), drawn by {@code nemesis};
   * any candidate if none is such (a cluster no bigger than the replication: a move is then a
   * leadership's).
   */
  private static ClusterMember pick(String row, List<ClusterMember> candidates, boolean holding, Random nemesis) {
    try (RemoteCluster status = RemoteCluster.open(cluster.addresses(), OPTIONS.withDataDeadline(Duration.ofSeconds(10)))) {
      int region = -1;
      for (io.bellows.engine.RegionInfo r : status.regions(TABLE)) {
        if (io.bellows.util.Bytes.compare(Bytes.of(row), r.startKey()) >= 0
            && (r.endKey().length == 0 || io.bellows.util.Bytes.compare(Bytes.of(row), r.endKey()) < 0)) {
          region = r.id();
        }
      }
      int id = region;
      Set<String> holders = status.clusterStatus().map(c -> c.replicasOf(TABLE).stream()
          .filter(r -> r.regionId() == id).map(io.bellows.engine.ClusterStatus.Replica::member)
          .collect(java.util.stream.Collectors.toSet())).orElse(Set.of());
      List<ClusterMember> fit = candidates.stream().filter(m -> holders.contains(m.id) == holding).toList();
      List<ClusterMember> from = fit.isEmpty() ? candidates : fit;
      return from.get(nemesis.nextInt(from.size()));
    } catch (StorageException e) {
      return candidates.get(nemesis.nextInt(candidates.size()));
    }
  }

  /**
   * Splits the table's region holding the round's rows at {@code key} (between the round's first
   * row and the others: the round's calls go on in both daughters) through a client of the
   * cluster's own, while the workload's clients go on; returns what came of it for the round's line.
   * A refusal is not the test's failure (a member restarted a moment ago may not be heard from yet);
   * the round's histories are checked either way.
   */
  private static String split(String key) {
    try (Bellows splitter = RemoteEngine.connect(cluster.addresses(), OPTIONS.withDataDeadline(Duration.ofSeconds(30)))) {
      long start = System.nanoTime();
      splitter.split(TABLE, Bytes.of(key));
      return " (at " + key + ", daughters led after " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms)";
    } catch (StorageException | IllegalArgumentException | IllegalStateException e) {
      return " (refused at " + key + ": " + e.getMessage() + ")";
    }
  }

  /** A round's calls on one clock, the writes acknowledged per row, and a count the nemesis waits on. */
  private static final class Recorder {
    final List<Operation> ops = Collections.synchronizedList(new ArrayList<>());
    final Map<String, Set<Long>> acked = new ConcurrentHashMap<>();
    final Map<String, Integer> causes = new ConcurrentHashMap<>();
    /** Calls of the cluster clients answered; guarded by this. */
    private int answered;

    void answered(Operation op, boolean countIt) {
      ops.add(op);
      if (countIt) {
        synchronized (this) {
          answered++;
          notifyAll();
        }
      }
    }

    void unknown(Operation op, StorageException cause) {
      ops.add(op);
      String why = cause instanceof RemoteCallException r ? "RemoteCallException(" + r.code() + ")"
          : cause.getClass().getSimpleName();
      causes.merge(why, 1, Integer::sum);
    }

    void acknowledged(String row, long value) {
      acked.computeIfAbsent(row, k -> ConcurrentHashMap.newKeySet()).add(value);
    }

    /** Waits until {@code n} more calls were answered, or the time is up; says which. */
    synchronized boolean await(int n, long timeoutMs) throws InterruptedException {
      int target = answered + n;
      long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
      while (answered < target) {
        long left = end - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return true;
    }
  }

  /** The round's client threads (one per cluster client) and one reader per member, until closed. */
  private static final class Workload implements AutoCloseable {
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<Thread> threads = new ArrayList<>();
    private final List<Bellows> pinned = new ArrayList<>();
    private final Seed seed;

    Workload(Seed seed, int round, String prefix, List<Table> clients, Recorder rec) {
      this.seed = seed;
      for (int c = 0; c < clients.size(); c++) {
        int client = c;
        Table t = clients.get(c);
        Random rnd = seed.random(round * 1000L + c);
        spawn("client-" + c, () -> runClient(client, round, prefix, t, rnd, rec));
      }
      for (ClusterMember m : cluster.members) {
        Bellows one = RemoteEngine.connect(m.clientAddress, ONE_SERVER);
        pinned.add(one);
        int client = 100 + pinned.size();
        Random rnd = seed.random(round * 1000L + client);
        spawn("reader-" + m.id, () -> runReader(client, prefix, one, rnd, rec));
      }
    }

    private void spawn(String name, Body body) {
      Thread t = new Thread(() -> {
        try {
          body.run();
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, name);
      threads.add(t);
      t.start();
    }

    interface Body {
      void run() throws Exception;
    }

    private void runClient(int client, int round, String prefix, Table t, Random rnd, Recorder rec) {
      Map<String, Long> lastSeen = new HashMap<>();
      for (long seq = 0; !stop.get(); seq++) {
        int kind = rnd.nextInt(12);
        if (kind >= 10) {
          count(client, prefix + COUNTER, kind == 10, t, rec);
          continue;
        }
        String row = prefix + "-k" + rnd.nextInt(KEYS);
        long value = (long) round << 48 | (long) (client + 1) << 40 | seq;
        Object input = kind < 4 ? new Read() : kind < 7 ? new Write(value) : new Cas(lastSeen.get(row), value);
        Put put = new Put(Bytes.of(row)).addColumn(F, Q, Bytes.toBytes(value)).addColumn(F, audit(value),
            Bytes.toBytes(value));
        long invoked = System.nanoTime();
        Object output;
        try {
          if (input instanceof Read) {
            Long v = value(t.get(new Get(Bytes.of(row)).addColumn(F, Q)).getValue(F, Q));
            output = new Value(v);
            lastSeen.put(row, v);
          } else if (input instanceof Write) {
            t.put(put);
            output = Boolean.TRUE;
          } else {
            Long expected = ((Cas) input).expected();
            output = t.checkAndPut(Bytes.of(row), F, Q, expected == null ? null : Bytes.toBytes(expected), put);
          }
        } catch (StorageException e) {
          // A read that failed tells nothing; a write that failed may have been applied, then or later.
          if (!(input instanceof Read)) {
            rec.unknown(Operation.unknown(client, row, invoked, input), e);
          }
          continue;
        }
        long done = System.nanoTime();
        if (Boolean.TRUE.equals(output)) {
          rec.acknowledged(row, value);
          lastSeen.put(row, value);
        }
        rec.answered(Operation.completed(client, row, invoked, done, input, output), true);
      }
    }

    /** An increment by 1 of the round's counter, or a read of it. */
    private static void count(int client, String row, boolean increment, Table t, Recorder rec) {
      Object input = increment ? new Increment(1) : new CounterModel.Read();
      long invoked = System.nanoTime();
      Object output;
      try {
        output = increment ? (Object) t.incrementColumnValue(Bytes.of(row), F, Q, 1)
            : new Count(value(t.get(new Get(Bytes.of(row)).addColumn(F, Q)).getValue(F, Q)));
      } catch (StorageException e) {
        if (increment) {
          rec.unknown(Operation.unknown(client, row, invoked, input), e);
        }
        return;
      }
      rec.answered(Operation.completed(client, row, invoked, System.nanoTime(), input, output), true);
    }

    /** Reads through one member only: refused there unless it leads (or reads are stale), answered as it says. */
    private void runReader(int client, String prefix, Bellows one, Random rnd, Recorder rec) throws InterruptedException {
      Table t = null;
      while (t == null && !stop.get()) {
        try {
          t = one.getTable(TABLE);
        } catch (StorageException e) {
          Thread.sleep(50); // pacing: the member is down, stopped, or restarted and not caught up with the catalog
        }
      }
      while (!stop.get()) {
        String row = prefix + "-k" + rnd.nextInt(KEYS);
        long invoked = System.nanoTime();
        Long v;
        try {
          v = value(t.get(new Get(Bytes.of(row)).addColumn(F, Q)).getValue(F, Q));
        } catch (NotLeaderRefusal e) {
          Thread.sleep(20); // pacing: a follower's refusals are cheap, and tell nothing
          continue;
        } catch (StorageException e) {
          Thread.sleep(50); // pacing: the member is down, stopped or cut off
          continue;
        }
        rec.answered(Operation.completed(client, row, invoked, System.nanoTime(), new Read(), new Value(v)), false);
        Thread.sleep(20); // pacing: these reads would otherwise flood the history and the machine
      }
    }

    /** Fails the test with a thread's failure, or with {@code what} unless {@code ok}. */
    void require(boolean ok, String what) {
      Throwable f = failure.get();
      if (f != null) {
        throw new AssertionError(seed + ": a client failed", f);
      }
      if (!ok) {
        throw new AssertionError(seed + ": no progress: " + what);
      }
    }

    @Override
    public void close() throws InterruptedException {
      stop.set(true);
      for (Thread t : threads) {
        t.join(TimeUnit.MINUTES.toMillis(2));
      }
      pinned.forEach(Bellows::close);
      require(true, "");
    }
  }

  /** Every key's history checked: the registers', then the counter's. */
  private static LinearizabilityChecker.Result check(List<Operation> ops) {
    List<Operation> counters = ops.stream().filter(o -> ((String) o.key()).endsWith(COUNTER)).toList();
    List<Operation> registers = ops.stream().filter(o -> !((String) o.key()).endsWith(COUNTER)).toList();
    LinearizabilityChecker.Result r = LinearizabilityChecker.check(new RegisterModel(), registers);
    return r.linearizable() ? LinearizabilityChecker.check(new CounterModel(), counters) : r;
  }

  private static byte[] audit(long value) {
    return Bytes.of("w" + value);
  }

  private static Long value(byte[] b) {
    return b == null ? null : Bytes.getLong(b, 0);
  }

  private static void summary(Seed seed, List<Round> rounds, List<CallStats.Snapshot> roundAttempts, int calls,
      int acknowledged) {
    Map<Kind, Integer> byKind = new EnumMap<>(Kind.class);
    Map<String, List<Long>> gaps = new TreeMap<>();
    Map<String, CallStats.Snapshot> attempts = new TreeMap<>();
    int unknown = 0;
    for (int i = 0; i < rounds.size(); i++) {
      Round r = rounds.get(i);
      byKind.merge(r.fault().kind(), 1, Integer::sum);
      unknown += r.unknown();
      String what = r.fault().kind() == Kind.TRANSFER ? "TRANSFER of the leadership"
          : r.fault().kind() == Kind.SPLIT ? "SPLIT of the region"
          : r.fault().kind() == Kind.MOVE ? "MOVE of a replica"
          : r.fault().kind() + (r.fault().leader() ? " leader" : " follower");
      gaps.computeIfAbsent(what, k -> new ArrayList<>()).add(r.gapMs());
      CallStats.Snapshot a = roundAttempts.get(i);
      attempts.merge(what, a, CallStats.Snapshot::plus);
    }
    StringBuilder b = new StringBuilder(String.format("[nemesis] %s: %d rounds, %d calls (%d of unknown outcome),"
        + " every key linearizable, %d acknowledged writes read back; faults %s", seed, rounds.size(), calls, unknown,
        acknowledged, byKind));
    for (Map.Entry<String, List<Long>> e : gaps.entrySet()) {
      List<Long> g = e.getValue().stream().filter(x -> x >= 0).sorted().toList();
      long none = e.getValue().size() - g.size();
      b.append(String.format("%n[nemesis]   writes back after %s: %s (%d rounds%s)", e.getKey(), g.isEmpty() ? "never"
          : "median " + g.get(g.size() / 2) + " ms, max " + g.get(g.size() - 1) + " ms", e.getValue().size(),
          none == 0 ? "" : ", " + none + " with no write invoked after the fault acknowledged"));
      CallStats.Snapshot a = attempts.get(e.getKey());
      b.append(String.format("; calls by attempts %s (at most %d)", a, a.mostAttempts()));
    }
    System.out.println(b);
  }
}
