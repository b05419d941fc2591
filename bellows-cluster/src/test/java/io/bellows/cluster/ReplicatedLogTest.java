package io.bellows.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.testing.FreePorts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.ratis.protocol.RaftGroupId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three Raft nodes in one JVM on 127.0.0.1 hold one group: every replica applies the same entries
 * in the same order; a follower refuses appends and names the leader; when the leader stops,
 * another is elected and takes appends; a replica that was down catches up when it returns.
 */
@Timeout(120)
class ReplicatedLogTest {
  private static final long WAIT_MS = 30_000;
  private static final UUID GROUP = UUID.fromString("00000000-0000-0000-0000-000000000042");

  @TempDir Path dir;
  private final Map<String, Integer> ports = new HashMap<>();
  private final Map<String, RaftNode> nodes = new ConcurrentHashMap<>();
  private final Map<String, RecordingApplier> appliers = new ConcurrentHashMap<>();
  private List<RaftNode.Peer> peers;

  /**
   * Keeps what it applied, as "payload"; waits for a count without sleeping. Its "files" — the
   * entries up to {@link #flush()} — outlive a restart of its node (the test hands them to the next
   * applier); what it applied after them does not. A checkpoint is a copy of another node's files.
   */
  final class RecordingApplier implements LogApplier {
    private final List<String> applied;
    private LogPosition last;
    private List<String> durable;
    private LogPosition durableAt;
    int installs;

    RecordingApplier(List<String> durable, LogPosition durableAt) {
      this.applied = new ArrayList<>(durable);
      this.durable = List.copyOf(durable);
      this.durableAt = durableAt;
      this.last = durableAt;
    }

    @Override
    public synchronized byte[] apply(LogPosition at, byte[] entry) {
      if (last != null && at.index() <= last.index()) {
        return ("skipped " + at.index()).getBytes(StandardCharsets.UTF_8); // held already, from the files
      }
      applied.add(new String(entry, StandardCharsets.UTF_8));
      last = at;
      notifyAll();
      return ("applied " + at.index()).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public synchronized byte[] query(byte[] request) {
      return Integer.toString(applied.size()).getBytes(StandardCharsets.UTF_8);
    }

    /** Everything applied becomes durable (a flush). */
    synchronized void flush() {
      durable = List.copyOf(applied);
      durableAt = last;
    }

    @Override
    public synchronized LogPosition durablePosition() {
      return durableAt;
    }

    @Override
    public synchronized LogPosition installCheckpoint(String leader) {
      RecordingApplier source = appliers.get(leader);
      List<String> files;
      LogPosition at;
      synchronized (source) {
        files = source.durable;
        at = source.durableAt;
      }
      installs++;
      applied.clear();
      applied.addAll(files);
      durable = files;
      durableAt = at;
      last = at;
      notifyAll();
      return at;
    }

    synchronized List<String> awaitCount(int n) throws InterruptedException {
      return awaitCount(n, WAIT_MS);
    }

    synchronized List<String> awaitCount(int n, long waitMs) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
      while (applied.size() < n) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        assertThat(left).as("applied %d of %d entries", applied.size(), n).isPositive();
        wait(left);
      }
      return List.copyOf(applied);
    }
  }

  @BeforeEach
  void startThree() throws IOException {
    for (String id : List.of("n1", "n2", "n3")) {
      ports.put(id, FreePorts.next());
    }
    peers = ports.entrySet().stream()
        .map(e -> new RaftNode.Peer(e.getKey(), "127.0.0.1:" + e.getValue())).toList();
    for (String id : ports.keySet()) {
      start(id).addGroup(GROUP, peers);
    }
  }

  @AfterEach
  void stopAll() {
    nodes.values().forEach(RaftNode::close);
  }

  /** The silence after which a replica restarted empty asks its leader to hand over (RaftSettings#silentLeader). */
  private Duration silentLeader = RaftSettings.DEFAULT_SILENT_LEADER;

  private RaftNode start(String id) {
    RecordingApplier before = appliers.get(id);
    RecordingApplier applier = before == null ? new RecordingApplier(List.of(), null)
        : new RecordingApplier(before.durable, before.durableAt);
    appliers.put(id, applier);
    RaftSettings settings = RaftSettings.of("127.0.0.1", ports.get(id), dir.resolve(id))
        .withLogRetention(64 * 1024, 16) // small log files, dropped often
        .withSilentLeader(silentLeader);
    RaftNode node = RaftNode.start(id, settings, g -> applier);
    nodes.put(id, node);
    return node;
  }


  private String leader() throws Exception {
    return nodes.get("n1").awaitLeader(GROUP, WAIT_MS);
  }

  private static void appendAll(ReplicatedLog log, String prefix, int n) {
    List<CompletableFuture<byte[]>> acks = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      acks.add(log.append((prefix + i).getBytes(StandardCharsets.UTF_8)));
    }
    acks.forEach(CompletableFuture::join);
  }

  @Test
  void everyReplicaAppliesTheSameEntriesInTheSameOrder() throws Exception {
    String leader = leader();
    appendAll(nodes.get(leader).log(GROUP), "e", 200);
    List<String> onLeader = appliers.get(leader).awaitCount(200);
    assertThat(onLeader).hasSize(200).doesNotHaveDuplicates();
    for (String id : ports.keySet()) {
      assertThat(appliers.get(id).awaitCount(200)).as(id).isEqualTo(onLeader);
    }
  }

  /**
   * Each node leaves the group (a dropped table's region) and deletes its log of it; a node
   * restarted finds no group again, and a log whose deletion a crash cut short (renamed out of
   * Ratis' sight, not yet deleted) is deleted at the start.
   */
  @Test
  void aNodeThatLeavesAGroupDeletesItsLogAndFindsNoGroupAtItsRestart() throws Exception {
    appendAll(nodes.get(leader()).log(GROUP), "e", 10);
    for (String id : ports.keySet()) {
      appliers.get(id).awaitCount(10);
      assertThat(dir.resolve(id).resolve(GROUP.toString())).isDirectory();
    }
    for (String id : ports.keySet()) {
      assertThat(nodes.get(id).removeGroup(GROUP)).as(id).isTrue();
      assertThat(nodes.get(id).holds(GROUP)).isFalse();
      assertThat(dir.resolve(id).resolve(GROUP.toString())).doesNotExist();
      assertThat(nodes.get(id).removeGroup(GROUP)).as("again").isFalse();
    }
    nodes.remove("n1").close();
    Path leftover = dir.resolve("n1").resolve(UUID.randomUUID() + ".removed").resolve("current");
    Files.createDirectories(leftover);
    Files.writeString(leftover.resolve("log_inprogress_0"), "x");
    RaftNode n1 = start("n1");
    assertThat(leftover.getParent()).doesNotExist();
    assertThat(n1.holds(GROUP)).isFalse();
  }

  @Test
  void anAppendAnswersWithTheReplyOfTheLeadersApplier() throws Exception {
    byte[] reply = nodes.get(leader()).log(GROUP).append("x".getBytes(StandardCharsets.UTF_8)).join();
    assertThat(new String(reply, StandardCharsets.UTF_8)).startsWith("applied ");
  }

  /**
   * A leader asked to hand its leadership to a member that is down waits for it (Ratis' transfer,
   * up to its timeout) and refuses writes meanwhile. Each such write is told the replica does not
   * lead (it was never appended, so the caller goes on to the next leader as from any follower),
   * not that the call failed, which a client would have passed on to its user.
   */
  @Test
  void aLeaderHandingOverItsLeadershipRefusesWritesAsAReplicaThatDoesNotLead() throws Exception {
    String leader = leader();
    String down = ports.keySet().stream().filter(id -> !id.equals(leader)).findFirst().orElseThrow();
    nodes.remove(down).close();
    ReplicatedLog log = nodes.get(leader).log(GROUP);
    appendAll(log, "behind", 3); // the member that is down lacks these: the transfer waits for it
    CompletableFuture<Void> transfer = CompletableFuture.runAsync(
        () -> nodes.get(leader).transferLeadership(GROUP, peers, leader, down));
    Throwable refused = null;
    while (refused == null && !transfer.isDone()) {
      try {
        log.append("w".getBytes(StandardCharsets.UTF_8)).join();
      } catch (CompletionException e) {
        refused = e.getCause();
      }
    }
    assertThat(refused).as("a write while the leader waits to hand over").isInstanceOf(NotLeaderException.class);
    transfer.join();
  }

  @Test
  void aFollowerRefusesAppendsAndNamesTheLeader() throws Exception {
    String leader = leader();
    String follower = ports.keySet().stream().filter(id -> !id.equals(leader)).findFirst().orElseThrow();
    nodes.get(follower).awaitLeader(GROUP, WAIT_MS);
    assertThatThrownBy(() -> nodes.get(follower).log(GROUP).append(new byte[] {1}).join())
        .isInstanceOf(CompletionException.class)
        .cause().isInstanceOf(NotLeaderException.class)
        .satisfies(e -> assertThat(((NotLeaderException) e).leader()).isEqualTo(leader));
  }

  @Test
  void whenTheLeaderStopsAnotherIsElectedAndTakesAppends() throws Exception {
    String old = leader();
    appendAll(nodes.get(old).log(GROUP), "before", 50);
    nodes.remove(old).close();
    String survivor = ports.keySet().stream().filter(id -> !id.equals(old)).findFirst().orElseThrow();
    String next = nodes.get(survivor).awaitLeaderOtherThan(GROUP, old, WAIT_MS);
    assertThat(next).isNotEqualTo(old);
    appendAll(nodes.get(next).log(GROUP), "after", 50);
    List<String> expected = appliers.get(next).awaitCount(100);
    for (String id : nodes.keySet()) {
      assertThat(appliers.get(id).awaitCount(100)).as(id).isEqualTo(expected);
    }
    assertThat(expected.subList(0, 50)).allMatch(s -> s.startsWith("before"));
  }

  /**
   * A member that adds a new group late (it applied the table's creation after the others) holds
   * none of its log until the leader sends it some, and once the group has committed entries Ratis
   * counts no vote from a member whose log is empty: were the leader to die then, the two left would
   * have one vote. {@link GroupMembers#awaitEveryReplica}, which creating a table waits for, ends only
   * once that member holds the log; then its vote elects the next leader.
   */
  @Test
  void aWaitForEveryReplicaEndsOnceALateMemberHoldsTheLogAndItsVoteThenElects() throws Exception {
    UUID late = UUID.fromString("00000000-0000-0000-0000-000000000043");
    nodes.get("n1").addGroup(late, peers);
    nodes.get("n2").addGroup(late, peers);
    String leader = nodes.get("n1").awaitLeader(late, WAIT_MS);
    assertThat(nodes.get("n1").members().awaitEveryReplica(late, peers, 300)).as("n3 does not hold the group").isFalse();
    nodes.get(leader).log(late).append("x".getBytes(StandardCharsets.UTF_8)).join(); // committed by n1 and n2

    nodes.get("n3").addGroup(late, peers);
    assertThat(nodes.get("n1").members().awaitEveryReplica(late, peers, WAIT_MS)).isTrue();
    nodes.remove(leader).close();
    String next = nodes.get("n3").awaitLeaderOtherThan(late, leader, WAIT_MS);
    assertThat(next).isNotEqualTo(leader);
    assertThat(new String(nodes.get(next).log(late).append("y".getBytes(StandardCharsets.UTF_8)).join(),
        StandardCharsets.UTF_8)).startsWith("applied ");
  }

  /** A new group that took no write holds only its first leader's configuration: the wait ends on it. */
  @Test
  void aWaitForEveryReplicaOfANewGroupEndsBeforeItsFirstWrite() throws Exception {
    UUID fresh = UUID.fromString("00000000-0000-0000-0000-000000000044");
    for (String id : List.of("n1", "n2", "n3")) {
      nodes.get(id).addGroup(fresh, peers);
    }
    nodes.get("n2").awaitLeader(fresh, WAIT_MS);
    assertThat(nodes.get("n2").members().awaitEveryReplica(fresh, peers, WAIT_MS)).isTrue();
  }

  /**
   * Six groups all led by one node (as after the others restarted): balancing passes hand four
   * leaderships over (a hand-over Ratis refuses, as it may while a follower catches up, is tried by
   * the next pass), and each node leads two.
   */
  @Test
  void aBalancingPassSpreadsTheLeadershipsThatOneNodeHeld() throws Exception {
    List<UUID> groups = new ArrayList<>(List.of(GROUP));
    for (int i = 0; i < 5; i++) {
      UUID g = new UUID(0x5ba1, i);
      for (String id : List.of("n1", "n2", "n3")) {
        nodes.get(id).addGroup(g, peers);
      }
      groups.add(g);
    }
    Map<UUID, String> leaders = new HashMap<>();
    for (UUID g : groups) {
      String leader = nodes.get("n1").awaitLeader(g, WAIT_MS);
      for (int attempt = 1; !leader.equals("n1"); attempt++) {
        assertThat(attempt).as("attempts to hand %s to n1", g).isLessThanOrEqualTo(10);
        if (nodes.get("n1").transferLeadership(g, peers, leader, "n1")) {
          awaitLeaderIs(g, "n1");
          leader = "n1";
        }
      }
      leaders.put(g, "n1");
    }
    int made = 0;
    for (int pass = 1; pass <= 10 && !leaders.values().stream().allMatch(l -> java.util.Collections.frequency(
        leaders.values(), l) == 2); pass++) {
      for (UUID g : groups) { // every node holds each group's whole log: a transfer to a node behind waits for it
        for (RaftNode n : nodes.values()) {
          n.log(g).read(new byte[0]).join();
        }
      }
      List<LeaderBalance.Move> moves = nodes.get("n2").balanceLeaders(java.util.Set.of(), java.util.Set.of(), 100);
      for (LeaderBalance.Move m : moves) {
        awaitLeaderIs(m.group(), m.to());
        leaders.put(m.group(), m.to());
      }
      made += moves.size();
    }
    Map<String, Integer> led = new HashMap<>();
    leaders.values().forEach(l -> led.merge(l, 1, Integer::sum));
    assertThat(led).containsExactlyInAnyOrderEntriesOf(Map.of("n1", 2, "n2", 2, "n3", 2));
    assertThat(made).as("hand-overs").isEqualTo(4);
    assertThat(nodes.get("n3").balanceLeaders(java.util.Set.of(), java.util.Set.of(), 100)).as("balanced").isEmpty();
  }

  /** Waits until every node knows {@code leader} as the leader of {@code group}. */
  private void awaitLeaderIs(UUID group, String leader) throws Exception {
    for (RaftNode n : nodes.values()) {
      String known = n.awaitLeader(group, WAIT_MS);
      while (!known.equals(leader)) {
        known = n.awaitLeaderOtherThan(group, known, WAIT_MS);
      }
    }
  }

  /**
   * The leader's node stops (its Raft port closes, as when its process dies): a follower finds the
   * port refusing connections when its stream from the leader ends, and stands for election at
   * once, not after its election timeout; the group takes appends again.
   */
  @Test
  void aFollowerStandsAtOnceWhenItsLeadersPortIsClosed() throws Exception {
    String old = leader();
    appendAll(nodes.get(old).log(GROUP), "e", 10);
    nodes.remove(old).close();
    String next = nodes.values().iterator().next().awaitLeaderOtherThan(GROUP, old, WAIT_MS);
    nodes.get(next).log(GROUP).append("after".getBytes(StandardCharsets.UTF_8)).get(WAIT_MS, TimeUnit.MILLISECONDS);
    assertThat(nodes.values().stream().mapToLong(RaftNode::leaderLossElections).sum())
        .as("elections started by a lost leader's closed port").isPositive();
  }

  /**
   * Only a port that refuses counts as a leader gone: a live node's port answers (its followers'
   * streams may end for other reasons), so a group that keeps its leader starts no such election.
   */
  @Test
  void aLiveLeadersPortIsNoCauseForAnElection() throws Exception {
    String leader = leader();
    appendAll(nodes.get(leader).log(GROUP), "e", 10);
    assertThat(LeaderLossWatch.refuses("127.0.0.1:" + ports.get(leader))).isFalse();
    int closed = FreePorts.next(); // nothing listens there
    assertThat(LeaderLossWatch.refuses("127.0.0.1:" + closed)).isTrue();
    assertThat(nodes.values().stream().mapToLong(RaftNode::leaderLossElections).sum()).isZero();
  }

  @Test
  void aWaitForReadinessEndsWithNotLeaderWhenAnotherReplicaLeads() throws Exception {
    String old = leader();
    List<String> followers = ports.keySet().stream().filter(id -> !id.equals(old)).toList();
    Map<String, CompletableFuture<Void>> waits = new HashMap<>();
    for (String id : followers) {
      waits.put(id, nodes.get(id).whenLeaderReady(RaftGroupId.valueOf(GROUP)));
    }
    nodes.remove(old).close();
    String next = nodes.get(followers.get(0)).awaitLeaderOtherThan(GROUP, old, WAIT_MS);
    // The new leader becomes ready: it takes an append of its own.
    nodes.get(next).log(GROUP).append("after".getBytes(StandardCharsets.UTF_8)).get(WAIT_MS, TimeUnit.MILLISECONDS);
    // A follower may hear of the old leader only after its wait began (Ratis tells each replica of a
    // leader when it hears from it): that, too, is another replica leading, and ends the wait. So the
    // new leader's own early wait ended ready, or with NotLeader naming the old leader; the other
    // follower's wait with NotLeader naming the new leader or the old one. None of them hangs.
    try {
      waits.get(next).get(WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(NotLeaderException.class);
      assertThat(((NotLeaderException) e.getCause()).leader()).isEqualTo(old);
    }
    String other = followers.stream().filter(id -> !id.equals(next)).findFirst().orElseThrow();
    assertThatThrownBy(() -> waits.get(other).get(WAIT_MS, TimeUnit.MILLISECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause().isInstanceOf(NotLeaderException.class)
        .satisfies(e -> assertThat(((NotLeaderException) e).leader()).isIn(next, old));
  }

  /**
   * A leader that was ready, then stopped: a writer that still holds its log (a client that picked
   * it just before the stop) is told it does not lead. Before, the closed node kept its old
   * readiness while its division still said it led but was not ready, and the wait spun forever.
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // it spun
  void aWaitForLeadershipOnAStoppedLeaderEndsWithNotLeader() throws Exception {
    String old = null;
    ReplicatedLog log = null;
    for (int attempt = 0; log == null; attempt++) { // a leader that is ready (another election may intervene)
      old = leader();
      try {
        assertThat(nodes.get(old).log(GROUP).awaitLeadership()).isPositive();
        log = nodes.get(old).log(GROUP);
      } catch (NotLeaderException e) {
        assertThat(attempt).as("elections while finding a ready leader").isLessThan(10);
      }
    }
    nodes.remove(old).close();
    assertThatThrownBy(log::awaitLeadership).isInstanceOf(NotLeaderException.class);
  }

  @Test
  void aReadSeesEveryAppendAcknowledgedBeforeItAndAStaleReadWhatItsReplicaApplied() throws Exception {
    String leader = leader();
    ReplicatedLog log = nodes.get(leader).log(GROUP);
    for (int i = 1; i <= 20; i++) {
      log.append(("e" + i).getBytes(StandardCharsets.UTF_8)).join();
      assertThat(new String(log.read(new byte[0]).join(), StandardCharsets.UTF_8)).isEqualTo(Integer.toString(i));
    }
    String follower = ports.keySet().stream().filter(id -> !id.equals(leader)).findFirst().orElseThrow();
    int seen = Integer.parseInt(new String(nodes.get(follower).log(GROUP).readStale(new byte[0]).join(),
        StandardCharsets.UTF_8));
    assertThat(seen).isBetween(0, 20);
  }

  @Test
  void theLogIsDroppedBelowCheckpointsAndAReplicaBehindThemInstallsOneFromTheLeader() throws Exception {
    String leader = leader();
    String follower = ports.keySet().stream().filter(id -> !id.equals(leader)).findFirst().orElseThrow();
    nodes.remove(follower).close();
    byte[] kib = new byte[1024];
    List<CompletableFuture<byte[]>> acks = new ArrayList<>();
    for (int i = 0; i < 400; i++) { // 400 KiB: several closed log files
      byte[] entry = ("big" + i + new String(kib, StandardCharsets.ISO_8859_1)).getBytes(StandardCharsets.ISO_8859_1);
      acks.add(nodes.get(leader).log(GROUP).append(entry));
    }
    acks.forEach(CompletableFuture::join);
    for (String id : nodes.keySet()) { // both live replicas flush and record it
      appliers.get(id).awaitCount(400);
      appliers.get(id).flush();
      assertThat(nodes.get(id).checkpoint(GROUP)).as(id).isGreaterThanOrEqualTo(400);
    }
    appendAll(nodes.get(leader).log(GROUP), "after", 10); // purges run as the log moves on
    start(follower); // it holds none of the entries the leader still has: it must install a checkpoint
    List<String> expected = appliers.get(leader).awaitCount(410);
    assertThat(appliers.get(follower).awaitCount(410)).isEqualTo(expected);
    assertThat(appliers.get(follower).installs).isEqualTo(1);
    // ... and after a restart of the leader, it replays only what lies after its checkpoint.
    nodes.remove(leader).close();
    start(leader);
    String next = nodes.get(leader).awaitLeader(GROUP, WAIT_MS);
    appendAll(nodes.get(next).log(GROUP), "last", 5);
    assertThat(appliers.get(leader).awaitCount(415)).isEqualTo(appliers.get(next).awaitCount(415));
  }

  @Test
  void aReplicaThatWasDownCatchesUpWhenItReturns() throws Exception {
    String leader = leader();
    String follower = ports.keySet().stream().filter(id -> !id.equals(leader)).findFirst().orElseThrow();
    appendAll(nodes.get(leader).log(GROUP), "a", 30);
    nodes.remove(follower).close();
    appendAll(nodes.get(leader).log(GROUP), "b", 30); // a majority of two still commits
    start(follower); // its applier starts empty: the log replays from its first entry
    List<String> expected = appliers.get(leader).awaitCount(60);
    assertThat(appliers.get(follower).awaitCount(60)).isEqualTo(expected);
  }

  @Test
  void aFollowerAppendsThroughTheLeaderAndEveryReplicaAppliesIt() throws Exception {
    String leader = leader();
    String follower = ports.keySet().stream().filter(id -> !id.equals(leader)).findFirst().orElseThrow();
    byte[] reply = nodes.get(follower).appendThroughLeader(GROUP, peers, "via".getBytes(StandardCharsets.UTF_8))
        .get(WAIT_MS, TimeUnit.MILLISECONDS);
    assertThat(new String(reply, StandardCharsets.UTF_8)).as("the leader's applier's reply").startsWith("applied ");
    for (String id : ports.keySet()) {
      assertThat(appliers.get(id).awaitCount(1)).as(id).containsExactly("via");
    }
  }

  /**
   * A replica restarted on an empty directory (log, term and vote lost) while its group takes no
   * entry: the leader takes it for holding what it acknowledged before, and its refusals of the
   * leader's heartbeats do not move the leader back (Ratis' follower match index never falls). The
   * group's next entry, which the replica itself appends through the leader, does: it then holds
   * the whole log, in order.
   */
  @Test
  void aReplicaRestartedOnAnEmptyDirectoryCatchesUpFromTheEntryItAppendsThroughTheLeader() throws Exception {
    String leader = leader();
    String follower = ports.keySet().stream().filter(id -> !id.equals(leader)).findFirst().orElseThrow();
    appendAll(nodes.get(leader).log(GROUP), "a", 30);
    appliers.get(follower).awaitCount(30);
    loseDirectoryAndRestartEmpty(follower);
    nodes.get(follower).appendThroughLeader(GROUP, peers, "joined".getBytes(StandardCharsets.UTF_8))
        .get(WAIT_MS, TimeUnit.MILLISECONDS);
    List<String> expected = appliers.get(leader).awaitCount(31);
    assertThat(expected.get(30)).isEqualTo("joined");
    assertThat(appliers.get(follower).awaitCount(31)).isEqualTo(expected);
  }

  /**
   * The same replica, restarted empty while the group takes no entry at all: the leader sends it
   * heartbeats only, which it refuses. Having applied nothing for {@link RaftSettings#silentLeader}
   * (shortened to 3 s here) while it knows the leader, it asks the leader to hand its leadership to
   * the third node; the new leader has no view of it and sends it the whole log.
   */
  @Test
  void aReplicaRestartedOnAnEmptyDirectoryOfAGroupTakingNoEntriesHasItsLeaderHandOverAndCatchesUp()
      throws Exception {
    String leader = leader();
    String follower = ports.keySet().stream().filter(id -> !id.equals(leader)).findFirst().orElseThrow();
    appendAll(nodes.get(leader).log(GROUP), "a", 30);
    appliers.get(follower).awaitCount(30);
    silentLeader = Duration.ofSeconds(3);
    loseDirectoryAndRestartEmpty(follower);
    List<String> expected = appliers.get(leader).awaitCount(30);
    assertThat(appliers.get(follower).awaitCount(30, silentLeader.toMillis() + 2 * WAIT_MS)).isEqualTo(expected);
  }

  /** Stops a node, deletes its whole directory (log, term, vote) and its applier's state, and starts it on the empty directory. */
  private void loseDirectoryAndRestartEmpty(String id) throws IOException {
    nodes.remove(id).close();
    try (Stream<Path> paths = Files.walk(dir.resolve(id))) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
    appliers.remove(id); // its state is gone with the directory
    start(id).addGroup(GROUP, peers);
  }
}
