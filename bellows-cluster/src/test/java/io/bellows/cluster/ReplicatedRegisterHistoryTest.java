package io.bellows.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.testing.history.LinearizabilityChecker;
import io.bellows.testing.history.Operation;
import io.bellows.testing.history.RegisterModel;
import io.bellows.testing.history.RegisterModel.Cas;
import io.bellows.testing.history.RegisterModel.Read;
import io.bellows.testing.history.RegisterModel.Value;
import io.bellows.testing.history.RegisterModel.Write;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Jepsen-style history of the replicated log: clients write, compare-and-set and (linearizably)
 * read registers kept by a state machine on three nodes, while a nemesis isolates the leader,
 * splits the nodes, and stops and restarts nodes. Every call is recorded with its invocation and
 * answer; a call whose answer never came counts as of unknown outcome. The history of every
 * register must be linearizable ({@link LinearizabilityChecker}); an acknowledged write lost, or a
 * read served by a deposed leader, fails it. Prints its seed; replay with -Dbellows.test.seed=N
 * (the operations and faults replay, not the timing). No overall timeout: every wait is bounded
 * (a round takes at most 80 s), and {@code -Dbellows.cluster.nemesis.rounds=N} makes it longer.
 */
@ExtendWith(SeedExtension.class)

class ReplicatedRegisterHistoryTest {
  private static final UUID GROUP = UUID.fromString("00000000-0000-0000-0000-0000000000aa");
  private static final List<String> IDS = List.of("n1", "n2", "n3");
  private static final int CLIENTS = 3;
  private static final int KEYS = 3;
  private static final int ROUNDS = Integer.getInteger("bellows.cluster.nemesis.rounds", 6);
  /** Calls that must complete in each half of a round (under the fault, then healed) before it moves on. */
  private static final int CALLS_PER_PHASE = 40;
  private static final long CALL_TIMEOUT_MS = 4_000;

  @TempDir Path dir;
  private final Map<String, Integer> ports = new LinkedHashMap<>();
  private final Map<String, RaftNode> nodes = new ConcurrentHashMap<>();
  private final AtomicReference<Set<String>> sideA = new AtomicReference<>(); // null: no partition
  private final AtomicInteger completed = new AtomicInteger();

  /** One register per key; entries "w key value", "c key expected|- value"; reads "r key". */
  static final class Registers implements LogApplier {
    private final Map<String, String> values = new HashMap<>();

    @Override
    public synchronized byte[] apply(LogPosition at, byte[] entry) {
      String[] p = new String(entry, StandardCharsets.UTF_8).split(" ");
      String reply = "ok";
      if (p[0].equals("w")) {
        values.put(p[1], p[2]);
      } else {
        boolean holds = p[2].equals(values.getOrDefault(p[1], "-"));
        if (holds) {
          values.put(p[1], p[3]);
        }
        reply = Boolean.toString(holds);
      }
      return reply.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public synchronized byte[] query(byte[] request) {
      String key = new String(request, StandardCharsets.UTF_8).split(" ")[1];
      return values.getOrDefault(key, "-").getBytes(StandardCharsets.UTF_8);
    }
  }

  private RaftNode start(String id) {
    TransportFaults faults = (from, to) -> {
      Set<String> a = sideA.get();
      return a != null && a.contains(from) != a.contains(to);
    };
    RaftSettings settings = RaftSettings.of("127.0.0.1", ports.get(id), dir.resolve(id))
        .withElectionTimeouts(Duration.ofMillis(500), Duration.ofMillis(1000));
    Registers registers = new Registers(); // a restarted node replays its log into a fresh one
    RaftNode node = RaftNode.start(id, settings, g -> registers, faults);
    nodes.put(id, node);
    return node;
  }

  @AfterEach
  void stopAll() {
    nodes.values().forEach(RaftNode::close);
  }

  @Test
  void everyRegisterIsLinearizableUnderPartitionsAndRestarts(Seed seed) throws Exception {
    for (String id : IDS) {
      try (ServerSocket s = new ServerSocket(0)) {
        ports.put(id, s.getLocalPort());
      }
    }
    List<RaftNode.Peer> peers = IDS.stream().map(id -> new RaftNode.Peer(id, "127.0.0.1:" + ports.get(id))).toList();
    for (String id : IDS) {
      start(id).addGroup(GROUP, peers);
    }
    nodes.get("n1").awaitLeader(GROUP, 30_000);

    List<Operation> history = Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> clients = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      int client = c;
      Thread t = new Thread(() -> {
        try {
          runClient(client, seed.random(client), history, stop);
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "client-" + c);
      clients.add(t);
      t.start();
    }
    Random nemesis = seed.random(99);
    List<String> faults = new ArrayList<>();
    for (int round = 0; round < ROUNDS && failure.get() == null; round++) {
      String fault = injectFault(nemesis);
      faults.add(fault);
      awaitCalls(CALLS_PER_PHASE, 20_000); // under the fault: calls on the majority side go on, or wait for an election
      heal();
      assertThat(awaitCalls(CALLS_PER_PHASE, 60_000)).as("%s: progress after healing %s", seed, fault).isTrue();
    }
    stop.set(true);
    for (Thread t : clients) {
      t.join();
    }
    assertThat(failure.get()).as(seed.toString()).isNull();
    System.out.println("[nemesis] " + seed + ": " + faults + ", " + history.size() + " calls recorded");
    LinearizabilityChecker.Result r = LinearizabilityChecker.check(new RegisterModel(), history);
    assertThat(r.linearizable()).as("%s, faults %s: %s", seed, faults, r.describe()).isTrue();
  }

  private String leaderNow() {
    for (RaftNode n : nodes.values()) {
      try {
        ReplicatedLog log = n.log(GROUP);
        if (log.isLeader()) {
          return n.id();
        }
      } catch (RuntimeException e) {
        // a node that is stopping
      }
    }
    return null;
  }

  private final List<String> stopped = new ArrayList<>();

  private String injectFault(Random rnd) {
    int kind = rnd.nextInt(3);
    if (kind == 0) {
      String leader = leaderNow();
      String isolated = leader != null ? leader : IDS.get(rnd.nextInt(IDS.size()));
      sideA.set(Set.of(isolated));
      return "isolate " + isolated + (leader != null ? " (leader)" : "");
    }
    if (kind == 1) {
      String one = IDS.get(rnd.nextInt(IDS.size()));
      String other = IDS.get(rnd.nextInt(IDS.size()));
      sideA.set(one.equals(other) ? Set.of(one) : Set.of(one, other));
      return "split " + sideA.get();
    }
    String victim = IDS.get(rnd.nextInt(IDS.size()));
    nodes.remove(victim).close();
    stopped.add(victim);
    return "stop " + victim;
  }

  private void heal() {
    sideA.set(null);
    for (String id : stopped) {
      start(id);
    }
    stopped.clear();
  }

  /** Waits until {@code n} more calls completed, or the time runs out; says which. */
  private boolean awaitCalls(int n, long timeoutMs) throws InterruptedException {
    int target = completed.get() + n;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    synchronized (completed) {
      while (completed.get() < target) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          return false;
        }
        completed.wait(left);
      }
    }
    return true;
  }

  private void countCompleted() {
    synchronized (completed) {
      completed.incrementAndGet();
      completed.notifyAll();
    }
  }

  private void runClient(int client, Random rnd, List<Operation> history, AtomicBoolean stop)
      throws InterruptedException {
    String target = IDS.get(client % IDS.size());
    long seq = 0;
    Map<Integer, Long> lastSeen = new HashMap<>();
    while (!stop.get()) {
      int key = rnd.nextInt(KEYS);
      long value = (long) client << 32 | seq++;
      int kind = rnd.nextInt(10);
      Object input;
      String request;
      if (kind < 4) {
        input = new Read();
        request = "r " + key;
      } else if (kind < 7) {
        input = new Write(value);
        request = "w " + key + " " + value;
      } else {
        Long expected = lastSeen.get(key);
        input = new Cas(expected, value);
        request = "c " + key + " " + (expected == null ? "-" : expected) + " " + value;
      }
      RaftNode node = nodes.get(target);
      if (node == null) { // stopped: try another
        target = IDS.get(rnd.nextInt(IDS.size()));
        continue;
      }
      byte[] payload = request.getBytes(StandardCharsets.UTF_8);
      long invoked = System.nanoTime();
      try {
        ReplicatedLog log = node.log(GROUP);
        byte[] reply = (input instanceof Read ? log.read(payload) : log.append(payload))
            .get(CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        long done = System.nanoTime();
        String answer = new String(reply, StandardCharsets.UTF_8);
        Object output;
        if (input instanceof Read) {
          Long v = answer.equals("-") ? null : Long.parseLong(answer);
          output = new Value(v);
          lastSeen.put(key, v);
        } else if (input instanceof Write) {
          output = Boolean.TRUE;
          lastSeen.put(key, value);
        } else {
          output = Boolean.parseBoolean(answer);
          if ((Boolean) output) {
            lastSeen.put(key, value);
          }
        }
        history.add(Operation.completed(client, key, invoked, done, input, output));
        countCompleted();
      } catch (ExecutionException | CompletionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof NotLeaderException nl) {
          // Refused before it reached the log: it did not happen. Go to the leader it names, or
          // wait for this replica to learn of one.
          target = nl.leader() != null && nodes.containsKey(nl.leader()) ? nl.leader() : awaitAnyLeader(node, rnd);
          continue;
        }
        // OutcomeUnknownException (the leader stepped down with it pending: the next may commit it)
        // and any other failure: the write may have happened.
        unknown(history, client, key, invoked, input);
        target = IDS.get(rnd.nextInt(IDS.size()));
      } catch (TimeoutException | IllegalArgumentException | IllegalStateException e) {
        unknown(history, client, key, invoked, input);
        target = IDS.get(rnd.nextInt(IDS.size()));
      }
    }
  }

  /** The leader {@code node} learns of next (an event), or a random node if none comes soon. */
  private String awaitAnyLeader(RaftNode node, Random rnd) throws InterruptedException {
    try {
      String leader = node.awaitLeader(GROUP, 2_000);
      return nodes.containsKey(leader) ? leader : IDS.get(rnd.nextInt(IDS.size()));
    } catch (TimeoutException | IllegalStateException e) {
      return IDS.get(rnd.nextInt(IDS.size()));
    }
  }

  /** A call whose answer never came: a write may have happened (any time after its invocation), a read tells nothing. */
  private static void unknown(List<Operation> history, int client, int key, long invoked, Object input) {
    if (!(input instanceof Read)) {
      history.add(Operation.unknown(client, key, invoked, input));
    }
  }
}
