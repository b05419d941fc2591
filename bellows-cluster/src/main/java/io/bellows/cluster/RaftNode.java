package io.bellows.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.SnapshotManagementRequest;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server's share of the cluster's Raft groups: a single Ratis server (one port, one log
 * directory) that hosts a replica of every group placed on this node. Groups are added once
 * ({@link #addGroup}); after a restart on the same directory the node finds its groups again and
 * asks {@code appliers} for each one's applier.
 *
 * <p>A replica added empty is watched until it has applied something: if its leader sends it
 * nothing it can use (the member lost its directory, and the leader still takes it for holding
 * what it acknowledged), it asks that leader to hand its leadership to another member ({@link
 * #silentLeaderMs}). One thread per node does the watching; {@link #appendThroughLeader} lets a replica that does not lead
 * append through the one that does.
 */
public final class RaftNode implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RaftNode.class);
  private final String id;
  private final RaftServer server;
  private final GroupMembers members = new GroupMembers(this);
  /** Starts a group's election at once when its leader's process is gone. */
  private final LeaderLossWatch leaderLoss;
  /** The node's log directory: a group's log is the directory named after its id. */
  private final Path storage;
  /** The transport's settings (TLS, test faults), which the node's own Ratis clients share. */
  private final Parameters parameters = new Parameters();
  /** The Ratis clients of {@link #appendThroughLeader} still waiting: closed with the node. */
  private final Set<RaftClient> clients = ConcurrentHashMap.newKeySet();
  private final ClientId clientId = ClientId.randomId();
  private final AtomicLong callIds = new AtomicLong();
  private final Map<RaftGroupId, CompletableFuture<RaftPeerId>> leaders = new ConcurrentHashMap<>();
  /** Per group whose replica here leads or may lead: completed once it leads and is ready for appends. */
  private final Map<RaftGroupId, CompletableFuture<Void>> ready = new ConcurrentHashMap<>();
  /**
   * How long a replica added here empty may have applied nothing while it knows a leader before it
   * asks that leader to hand its leadership to another member ({@link #watchEmptyReplicas};
   * {@link RaftSettings#silentLeader}, 15 s by default). Long enough for the leader's
   * appender to come back from its error pauses (5 s at most) more than twice, so a replica the
   * leader is about to send its log or a checkpoint notification to is left alone; a new member
   * of a healthy group applies the leader's first entries within a heartbeat.
   */
  private final long silentLeaderMs;
  /** How long a leader asked to hand over its leadership waits for the member to hold its whole log. */
  private static final long TRANSFER_TIMEOUT_MS = 10_000;
  /**
   * How long a leader asked by a client to hand over ({@link #moveLeadership}) waits for the member
   * to hold its whole log: the group's writes are refused meanwhile, and a live follower holds all
   * but the last few entries, which one round of appends brings; one that lacks more by then is far
   * behind (just restarted, or installing a checkpoint).
   */
  private static final long MOVE_TIMEOUT_MS = 3_000;
  /** The groups added here with an empty replica that has applied nothing yet: since when each knows its leader. */
  private final Map<RaftGroupId, EmptyReplica> empty = new ConcurrentHashMap<>();
  private final ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "bellows-raft-watch"); // empty replicas; lost leaders' probes

    t.setDaemon(true);
    return t;
  });
  /** Set by {@link #close}: from then on every wait for readiness fails at once. */
  private volatile boolean closed;

  /**
   * A replica added here empty: its group's peers, and since when it has known a leader while
   * applying nothing. The clock runs from the first leader it learns of and is not reset when it
   * loses sight of the leader again: a leader that takes the replica for holding entries it lacks
   * slows its heartbeats to it below the election timeout, so the replica keeps dropping the
   * leader (and pre-voting in vain) between them, and a clock reset on each drop never ran out.
   */
  static final class EmptyReplica {
    final List<Peer> peers;
    private long leaderKnownSince = -1;
    private String lastLeader;
    /** Transfers asked so far: the next goes to the next other member. */
    int transfers;

    EmptyReplica(List<Peer> peers) {
      this.peers = peers;
    }

    /**
     * Told, once a second, the leader the replica knows now ({@code leader}, null if none) at
     * {@code nowNanos}; returns the leader to ask for a hand-over once the replica has known one
     * for {@code silentNanos} while applying nothing (then the clock starts again), else null.
     * A replica that leads itself is not stuck: its clock stops.
     */
    String observe(String self, String leader, long nowNanos, long silentNanos) {
      if (leader != null) {
        lastLeader = leader;
      }
      if (lastLeader == null || lastLeader.equals(self)) {
        leaderKnownSince = -1;
        return null;
      }
      if (leaderKnownSince < 0) {
        leaderKnownSince = nowNanos;
        return null;
      }
      if (nowNanos - leaderKnownSince < silentNanos) {
        return null;
      }
      leaderKnownSince = nowNanos; // asked again after as long, if it is still stuck
      return lastLeader;
    }
  }

  private RaftNode(String id, RaftSettings settings, Function<UUID, LogApplier> appliers, TransportFaults faults,
      RaftTls tls) throws IOException {
    this.id = id;
    this.storage = settings.storage();
    this.silentLeaderMs = settings.silentLeader().toMillis();
    Files.createDirectories(storage);
    deleteRemovedLeftovers();
    this.leaderLoss = new LeaderLossWatch(id, this::serverIfBuilt, watcher);
    // Interceptors run last-added first: the test's partitions before the watch, so a cut-off leader is not watched.
    FaultInterceptor faultInterceptor = faults == null ? null : new FaultInterceptor(id, faults);
    GrpcConfigKeys.Server.setServicesCustomizer(parameters, (builder, types) -> {
      builder.intercept(leaderLoss);
      return faultInterceptor == null ? builder : builder.intercept(faultInterceptor);
    });
    if (tls != null) {
      tls.applyTo(parameters);
    }
    this.server = RaftServer.newBuilder()
        .setServerId(RaftPeerId.valueOf(id))
        .setProperties(settings.toProperties())
        .setParameters(parameters)
        .setStateMachineRegistry(group -> new LogStateMachine(appliers.apply(group.getUuid()), this::leaderChanged,
            this::leaderReady))
        .build();
  }

  /**
   * Starts the node {@code id} (unique in the cluster); its groups' entries go to the applier
   * {@code appliers} returns for each group's id.
   */
  public static RaftNode start(String id, RaftSettings settings, Function<UUID, LogApplier> appliers) {
    return start(id, settings, appliers, null);
  }

  /** As {@link #start(String, RaftSettings, Function)}, with a test's network partitions applied to what the node receives. */
  public static RaftNode start(String id, RaftSettings settings, Function<UUID, LogApplier> appliers,
      TransportFaults faults) {
    return start(id, settings, appliers, faults, null);
  }

  /**
   * As {@link #start(String, RaftSettings, Function, TransportFaults)}, speaking Raft over mutual
   * TLS when {@code tls} is not null (plain text, unauthenticated, when it is).
   */
  public static RaftNode start(String id, RaftSettings settings, Function<UUID, LogApplier> appliers,
      TransportFaults faults, RaftTls tls) {
    try {
      RaftNode node = new RaftNode(id, settings, appliers, faults, tls);
      node.server.start();
      node.watcher.scheduleWithFixedDelay(node::watchEmptyReplicas, 1, 1, TimeUnit.SECONDS);
      return node;
    } catch (IOException e) {
      throw new UncheckedIOException("could not start Raft node " + id + " on " + settings.address(), e);
    }
  }

  /** The node's Ratis server, or null while the constructor builds it. */
  private RaftServer serverIfBuilt() {
    return server;
  }

  /** Elections this node started because a group's leader process was gone ({@link LeaderLossWatch}). */
  public long leaderLossElections() {
    return leaderLoss.elections();
  }

  /** A peer of a group: a node's id and the address of its Raft port. */
  public record Peer(String id, String address) {
    RaftPeer toRatis() {
      return RaftPeer.newBuilder().setId(id).setAddress(address).build();
    }
  }

  public String id() {
    return id;
  }

  /**
   * Adds this node's replica of group {@code group} with members {@code peers}. Every member of a new
   * group adds it the same way (each among the peers); the replicas then elect a leader. A replica
   * joining a group that exists (a replica moved here) is added with the group's members without
   * itself: it never stands, and learns that it is a member from the leader's membership change.
   */
  public ReplicatedLog addGroup(UUID group, List<Peer> peers) {
    RaftGroup g = RaftGroup.valueOf(RaftGroupId.valueOf(group), peers.stream().map(Peer::toRatis).toList());
    try {
      RaftClientReply reply = server.groupManagement(
          GroupManagementRequest.newAdd(clientId, server.getId(), callIds.incrementAndGet(), g));
      if (!reply.isSuccess()) {
        throw new IllegalStateException("node " + id + " could not add group " + group + ": " + reply.getException());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("node " + id + " could not add group " + group, e);
    }
    empty.put(g.getGroupId(), new EmptyReplica(peers));
    return log(group);
  }

  /** The suffix of a removed group's log directory, renamed before it is deleted. */
  private static final String REMOVED = ".removed";

  /**
   * Leaves group {@code group} and deletes this node's log of it (a dropped table's region):
   * Ratis closes the replica (it votes and applies no more), then its directory is renamed out of
   * Ratis' sight ({@code GROUP.removed}, which Ratis takes for no group at a start) and deleted;
   * a crash during the deletion leaves that name, which the next start deletes. The other members
   * are not asked: each leaves the group itself. Returns false if the node does not hold the group.
   */
  public boolean removeGroup(UUID group) {
    RaftGroupId gid = RaftGroupId.valueOf(group);
    if (!holds(gid)) {
      return false;
    }
    try {
      RaftClientReply reply = server.groupManagement(
          GroupManagementRequest.newRemove(clientId, server.getId(), callIds.incrementAndGet(), gid, false, false));
      if (!reply.isSuccess()) {
        throw new IllegalStateException("node " + id + " could not leave group " + group + ": " + reply.getException());
      }
      empty.remove(gid);
      leaders.remove(gid);
      CompletableFuture<Void> f = ready.remove(gid);
      if (f != null) {
        f.completeExceptionally(new NotLeaderException(group.toString(), id, null));
      }
      Path dir = storage.resolve(group.toString());
      if (Files.exists(dir)) {
        Path removed = storage.resolve(group + REMOVED);
        Files.move(dir, removed, StandardCopyOption.ATOMIC_MOVE);
        deleteTree(removed);
      }
      LOG.info("{}: {} left the group and deleted its log", group, id);
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("node " + id + " could not leave group " + group, e);
    }
  }

  /** Whether this node holds a replica of {@code group} now. */
  public boolean holds(UUID group) {
    return holds(RaftGroupId.valueOf(group));
  }

  private boolean holds(RaftGroupId gid) {
    try {
      server.getDivision(gid);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** The logs of groups removed before a crash ended their deletion ({@link #removeGroup}). */
  private void deleteRemovedLeftovers() throws IOException {
    try (Stream<Path> dirs = Files.list(storage)) {
      for (Path d : (Iterable<Path>) dirs::iterator) {
        if (d.getFileName().toString().endsWith(REMOVED) && Files.isDirectory(d)) {
          deleteTree(d);
        }
      }
    }
  }

  /** Deletes a removed group's log: what Ratis made there; anything else stays, said so. */
  private static void deleteTree(Path root) throws IOException {
    List<Path> left = RaftLogDirectory.delete(root);
    if (!left.isEmpty()) {
      LOG.warn("left {} in the removed group log {}: not made by Ratis or Bellows", left, root);
    }
  }

  /**
   * Appends {@code entry} to {@code group} (over {@code peers}) through whichever replica leads it,
   * from a node whose own replica may not: a Ratis client over the peers' Raft ports, which follows
   * the leader's name and, while the group has none, asks again a second later, until the entry is
   * committed or this node closes. For entries any member may ask for (meta's "member joined"), not
   * for a region's writes, which the leader evaluates. Completes with the applier's reply.
   */
  public CompletableFuture<byte[]> appendThroughLeader(UUID group, List<Peer> peers, byte[] entry) {
    if (closed) {
      return CompletableFuture.failedFuture(new IllegalStateException("node " + id + " is closed"));
    }
    RaftClient client = client(group, peers,
        RetryPolicies.retryForeverWithSleep(TimeDuration.valueOf(1, TimeUnit.SECONDS)));
    clients.add(client);
    return client.async().send(Message.valueOf(ByteString.copyFrom(entry))).handleAsync((reply, error) -> {
      clients.remove(client);
      closeQuietly(client);
      if (error != null) {
        throw error instanceof CompletionException c ? c : new CompletionException(error);
      }
      if (!reply.isSuccess()) {
        throw new IllegalStateException("node " + id + " could not append to group " + group + ": "
            + reply.getException());
      }
      return reply.getMessage().getContent().toByteArray();
    }, task -> { // not on the client's own threads, which its close stops
      Thread t = new Thread(task, "bellows-raft-client-close");
      t.setDaemon(true);
      t.start();
    });
  }

  /** What this node asks of, and about, a group's members: their logs, their silence, its leader, its membership change. */
  public GroupMembers members() {
    return members;
  }

  /** A Ratis client of {@code group}, over the peers' Raft ports with this node's transport settings. */
  RaftClient client(UUID group, List<Peer> peers, RetryPolicy retries) {
    return client(group, peers, retries, new RaftProperties());
  }

  RaftClient client(UUID group, List<Peer> peers, RetryPolicy retries, RaftProperties properties) {
    return RaftClient.newBuilder()
        .setRaftGroup(RaftGroup.valueOf(RaftGroupId.valueOf(group), peers.stream().map(Peer::toRatis).toList()))
        .setProperties(properties)
        .setParameters(parameters)
        .setRetryPolicy(retries)
        .build();
  }

  /**
   * Every second: a replica this node added empty (a new group, or a group this member lost its
   * directory of) that has applied nothing although it has known a leader for {@link
   * #silentLeaderMs}, and was asked for no checkpoint, asks that leader to hand its leadership to
   * another member ({@link #transferLeadership}). Ratis'
   * leader never lowers what it holds a follower to have acknowledged (Raft's followers keep their
   * logs): to a member that lost its log, it sends heartbeats that the member refuses, and, once
   * the refusals have slowed its appender to pauses longer than a heartbeat, nothing else. A new
   * leader starts with no view of the member and sends it the log from its start, or asks it to
   * install a checkpoint (docs/design/cluster.md, "A member that lost its disk").
   */
  private void watchEmptyReplicas() {
    try {
      long now = System.nanoTime();
      for (Map.Entry<RaftGroupId, EmptyReplica> e : empty.entrySet()) {
        RaftGroupId gid = e.getKey();
        EmptyReplica r = e.getValue();
        RaftServer.Division d;
        try {
          d = server.getDivision(gid);
        } catch (IOException gone) {
          empty.remove(gid);
          continue;
        }
        TermIndex applied = d.getStateMachine().getLastAppliedTermIndex();
        if ((applied != null && applied.getIndex() >= 0)
            || (d.getStateMachine() instanceof LogStateMachine m && m.checkpointAsked())) {
          empty.remove(gid); // it follows its leader's log, or installs a checkpoint
          continue;
        }
        String leader = r.observe(id, knownLeader(gid), now, TimeUnit.MILLISECONDS.toNanos(silentLeaderMs));
        if (leader != null) {
          List<Peer> others = r.peers.stream().filter(p -> !p.id().equals(id) && !p.id().equals(leader)).toList();
          if (others.isEmpty()) {
            continue; // a group of two: no one to hand the leadership to
          }
          String to = others.get(r.transfers++ % others.size()).id();
          LOG.warn("{}: {} has applied nothing of the group in {} s although {} leads it: the leader takes this"
              + " replica for holding entries it does not hold (its directory was lost?) and sends it none;"
              + " asking {} to hand its leadership to {}", gid, id, silentLeaderMs / 1000.0, leader, leader, to);
          transferLeadership(gid.getUuid(), r.peers, leader, to);
        }
      }
    } catch (RuntimeException e) {
      LOG.warn("{}: the watch of empty replicas failed: {}", id, e.toString(), e);
    }
  }

  /**
   * Asks {@code leader} to hand its leadership of {@code group} to {@code to}; returns whether it
   * did. Ratis' transfer, not a plain step down: the leader waits until {@code to} holds its whole
   * log before it lets it stand, so the election this causes (in which an empty replica votes for
   * anyone) cannot elect a member that lacks an acknowledged entry.
   */
  boolean transferLeadership(UUID group, List<Peer> peers, String leader, String to) {
    try (RaftClient client = client(group, peers, RetryPolicies.noRetry())) {
      RaftClientReply reply = client.admin().transferLeadership(RaftPeerId.valueOf(to), RaftPeerId.valueOf(leader),
          TRANSFER_TIMEOUT_MS);
      if (!reply.isSuccess()) {
        LOG.info("{}: {} did not hand its leadership to {}: {}", group, leader, to, reply.getException());
      }
      return reply.isSuccess();
    } catch (IOException e) {
      LOG.info("{}: could not ask {} to hand its leadership to {}: {}", group, leader, to, e.toString());
      return false;
    }
  }

  /**
   * Hands the leadership of {@code group} (over {@code peers}) to peer {@code to}, asked of its
   * leader wherever that is ({@link #transferLeadership}, with {@link #MOVE_TIMEOUT_MS}); returns
   * the leader it found, which is {@code to} when it led already (nothing asked). First {@code to}
   * is asked for its replica's view of the group over its Raft port: a member down or cut off does
   * not answer, and a leader asked to hand over to it would refuse writes until the transfer timed
   * out. A transfer that ended with another leader (the member lost the election it was told to
   * start: entries appended meanwhile left its log short of the voters') is asked again of that
   * leader, three tries in all; one that timed out (the member did not catch up with the leader's
   * log) is not, as each try pauses the group's writes.
   *
   * @throws NotLeaderException when this node knows no leader of the group (an election is under way)
   * @throws IllegalStateException when {@code to} does not answer, holds no replica of the group, or
   *     the leader did not hand over (the message says why)
   */
  public String moveLeadership(UUID group, List<Peer> peers, String to) {
    RaftGroupId gid = RaftGroupId.valueOf(group);
    // A replica here that is no longer among the group's members (moved away, not removed yet) knows no current leader.
    boolean member = peers.stream().anyMatch(p -> p.id().equals(id)) && holds(gid);
    String first = member ? knownLeader(gid) : members.leaderSeenBy(group, peers);
    if (first == null) {
      throw new NotLeaderException(group.toString(), id, null);
    }
    if (first.equals(to)) {
      return first;
    }
    try (RaftClient probe = client(group, peers, RetryPolicies.noRetry())) {
      probe.getGroupManagementApi(RaftPeerId.valueOf(to)).info(gid);
    } catch (IOException | RuntimeException e) { // Ratis' transport may fail unchecked (its gRPC's status)
      throw new IllegalStateException("member " + to + " did not answer for its replica of group " + group
          + " (down, cut off, or not a replica): the leadership stays with " + first + " (" + e + ")", e);
    }
    // A leader just elected answers "not ready" until it has committed its first entry, and a
    // member that has just lost the leadership "not leader": the client asks again a few times,
    // and waits longer for an answer than the leader waits for the member to catch up.
    RaftProperties moveProperties = new RaftProperties();
    RaftClientConfigKeys.Rpc.setRequestTimeout(moveProperties,
        TimeDuration.valueOf(MOVE_TIMEOUT_MS + 2_000, TimeUnit.MILLISECONDS));
    RetryPolicy moveRetries = RetryPolicies.retryUpToMaximumCountWithFixedSleep(10,
        TimeDuration.valueOf(100, TimeUnit.MILLISECONDS));
    try (RaftClient client = client(group, peers, moveRetries, moveProperties)) {
      String leader = first;
      String failure = null;
      for (int attempt = 1; ; attempt++) {
        try {
          RaftClientReply reply = client.admin().transferLeadership(RaftPeerId.valueOf(to), RaftPeerId.valueOf(leader),
              MOVE_TIMEOUT_MS);
          if (reply.isSuccess()) {
            LOG.info("{}: {} handed its leadership to {} as asked", group, leader, to);
            return first;
          }
          failure = leader + " answered " + reply.getException();
        } catch (IOException | RuntimeException e) {
          // Ratis' "no more retries" hides the last answer in its cause.
          failure = leader + " answered " + e + (e.getCause() == null ? "" : " (last: " + e.getCause() + ")");
        }
        // Ratis names why in its exception's text: TIMED_OUT, the member not caught up in time.
        if (attempt == 3 || failure.contains("TIMED_OUT")) {
          break;
        }
        try {
          leader = member ? awaitLeader(group, MOVE_TIMEOUT_MS) // after a lost election, the member that won it
              : members.leaderSeenBy(group, peers);
          if (leader == null) {
            break;
          }
        } catch (TimeoutException e) {
          break;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
        if (leader.equals(to)) {
          return first;
        }
      }
      throw new IllegalStateException("the leadership of group " + group + " was not handed to " + to + ": " + failure);
    } catch (IOException e) {
      throw new UncheckedIOException("closing the Ratis client of group " + group + " failed", e);
    }
  }

  /**
   * How many of the groups this node holds, but {@code exclude}, each member leads as far as this
   * node knows (a member leading none is absent): what a hand-over without a named member goes by.
   */
  public Map<String, Integer> leaderships(Set<UUID> exclude) {
    Map<String, Integer> out = new java.util.TreeMap<>();
    for (RaftGroupId gid : server.getGroupIds()) {
      if (!exclude.contains(gid.getUuid())) {
        String leader = knownLeader(gid);
        if (leader != null) {
          out.merge(leader, 1, Integer::sum);
        }
      }
    }
    return out;
  }

  /** The leader this node's replica of {@code group} knows, or null (none known, or no replica here). */
  public String leaderOf(UUID group) {
    return knownLeader(RaftGroupId.valueOf(group));
  }

  /**
   * One leader-balancing pass over the groups this node holds, but {@code exclude}: plans at most
   * {@code maxMoves} hand-overs ({@link LeaderBalance}) among the peers not in {@code down}, and asks
   * each group's leader for its own, one after the other; returns those that were made. A member
   * that holds every group (any member of a cluster of three) sees them all; one that holds a part
   * balances that part.
   */
  public List<LeaderBalance.Move> balanceLeaders(Set<UUID> exclude, Set<String> down, int maxMoves) {
    List<LeaderBalance.Group> groups = new java.util.ArrayList<>();
    Map<UUID, List<Peer>> peersOf = new java.util.HashMap<>();
    Set<String> live = new java.util.TreeSet<>();
    for (RaftGroupId gid : server.getGroupIds()) {
      if (exclude.contains(gid.getUuid())) {
        continue;
      }
      RaftServer.Division d;
      try {
        d = server.getDivision(gid);
      } catch (IOException gone) {
        continue;
      }
      List<Peer> peers = d.getGroup().getPeers().stream()
          .map(p -> new Peer(p.getId().toString(), p.getAddress())).toList();
      peersOf.put(gid.getUuid(), peers);
      List<String> ids = peers.stream().map(Peer::id).toList();
      ids.stream().filter(p -> !down.contains(p)).forEach(live::add);
      groups.add(new LeaderBalance.Group(gid.getUuid(), ids, knownLeader(gid)));
    }
    return balanceLeaders(groups, peersOf, live, maxMoves);
  }

  /**
   * A leader-balancing pass over {@code groups} (each with its peers' Raft addresses in {@code
   * peersOf}; this node need not hold them): plans at most {@code maxMoves} hand-overs among the
   * {@code live} members ({@link LeaderBalance}) and asks each group's leader for its own, one after
   * the other; returns those that were made.
   */
  public List<LeaderBalance.Move> balanceLeaders(List<LeaderBalance.Group> groups, Map<UUID, List<Peer>> peersOf,
      Set<String> live, int maxMoves) {
    List<LeaderBalance.Move> made = new java.util.ArrayList<>();
    for (LeaderBalance.Move m : LeaderBalance.plan(groups, live, maxMoves)) {
      if (transferLeadership(m.group(), peersOf.get(m.group()), m.from(), m.to())) {
        made.add(m);
      }
    }
    if (!made.isEmpty()) {
      LOG.info("{}: handed {} leaderships over to balance the members' load: {}", id, made.size(), made);
    }
    return made;
  }

  private static void closeQuietly(RaftClient client) {
    try {
      client.close();
    } catch (IOException | RuntimeException e) {
      LOG.debug("closing a Ratis client failed: {}", e.toString());
    }
  }

  /** This node's replica of a group it holds (added before, or found again at a restart). */
  public ReplicatedLog log(UUID group) {
    RaftGroupId gid = RaftGroupId.valueOf(group);
    try {
      return new ReplicatedLog(this, server.getDivision(gid), clientId, callIds);
    } catch (IOException e) {
      throw new IllegalArgumentException("node " + id + " holds no replica of group " + group, e);
    }
  }

  /**
   * Records this node's replica of {@code group} as durable up to its applier's durable position
   * (a flush does this for a region), so that the log below it can be dropped. Returns the index
   * recorded, or -1 if the applier has nothing durable.
   */
  public long checkpoint(UUID group) {
    try {
      RaftClientReply reply = server.snapshotManagement(SnapshotManagementRequest.newCreate(clientId, server.getId(),
          RaftGroupId.valueOf(group), callIds.incrementAndGet(), 30_000));
      if (!reply.isSuccess()) {
        throw new IllegalStateException("node " + id + " could not checkpoint group " + group + ": " + reply.getException());
      }
      return reply.getLogIndex();
    } catch (IOException e) {
      throw new UncheckedIOException("node " + id + " could not checkpoint group " + group, e);
    }
  }

  /**
   * The position of the last entry this node's replica of {@code group} applied (its applier's
   * entries and Ratis' own), or null if none: a checkpoint taken while the applier is held still
   * names it.
   */
  public LogPosition applied(UUID group) {
    try {
      TermIndex t = server.getDivision(RaftGroupId.valueOf(group)).getStateMachine().getLastAppliedTermIndex();
      return t == null || t.getIndex() < 0 ? null : new LogPosition(t.getTerm(), t.getIndex());
    } catch (IOException e) {
      throw new IllegalArgumentException("node " + id + " holds no replica of group " + group, e);
    }
  }

  RaftServer server() {
    return server;
  }

  /** The leader a replica of {@code group} on this node has learnt of, waiting up to {@code timeoutMs} for one. */
  public String awaitLeader(UUID group, long timeoutMs) throws InterruptedException, TimeoutException {
    return awaitLeaderOtherThan(group, null, timeoutMs);
  }

  /**
   * The leader a replica of {@code group} on this node knows, once it is not {@code old} (a leader
   * that stopped), waiting up to {@code timeoutMs} for an election to make one.
   */
  public String awaitLeaderOtherThan(UUID group, String old, long timeoutMs) throws InterruptedException,
      TimeoutException {
    RaftGroupId gid = RaftGroupId.valueOf(group);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (true) {
      // Registered before the check, so a change between the two is not missed.
      CompletableFuture<RaftPeerId> f = leaders.computeIfAbsent(gid, k -> new CompletableFuture<>());
      String known = knownLeader(gid);
      if (known != null && !known.equals(old)) {
        return known;
      }
      try {
        f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException(e.getCause());
      }
    }
  }

  String knownLeader(RaftGroupId gid) {
    try {
      RaftPeerId leader = server.getDivision(gid).getInfo().getLeaderId();
      return leader == null ? null : leader.toString();
    } catch (IOException e) {
      return null; // the group is not (yet) on this node
    }
  }

  /**
   * Completes once this node's replica of {@code group} leads and takes appends (a new term's first
   * entry committed and applied), or fails with {@link NotLeaderException} once another replica
   * leads or the node closes.
   */
  CompletableFuture<Void> whenLeaderReady(RaftGroupId group) {
    if (closed) {
      // A closed node's divisions may still say they lead: never hand out a readiness it had once.
      return CompletableFuture.failedFuture(new NotLeaderException(group.getUuid().toString(), id, null));
    }
    return ready.computeIfAbsent(group, g -> new CompletableFuture<>());
  }

  private void leaderReady(RaftGroupId group) {
    // Once per term: where a failover's election ends and writes can resume (the members' logs time it).
    LOG.info("{}: {} leads and takes appends", group, id);
    whenLeaderReady(group).complete(null);
  }

  private void leaderChanged(RaftGroupMemberId member, RaftPeerId leader) {
    // A new term: whatever readiness this node had for the group is gone until it is ready again. If
    // another replica leads now, whoever waits for this one to be ready is told it does not lead.
    boolean here = leader != null && leader.equals(server.getId());
    ready.compute(member.getGroupId(), (g, f) -> {
      if (f != null && !f.isDone() && !here) {
        f.completeExceptionally(new NotLeaderException(g.getUuid().toString(), id,
            leader == null ? null : leader.toString()));
      }
      return f == null || f.isDone() || !here ? new CompletableFuture<>() : f;
    });
    if (leader != null) {
      CompletableFuture<RaftPeerId> waiting = leaders.remove(member.getGroupId());
      if (waiting != null) {
        waiting.complete(leader);
      }
    }
  }

  /** Stops the node: its replicas stop voting and applying; their logs stay on disk for a restart. */
  @Override
  public void close() {
    closed = true;
    ready.forEach((g, f) -> f.completeExceptionally(new NotLeaderException(g.getUuid().toString(), id, null)));
    clients.forEach(RaftNode::closeQuietly); // their appends fail: nothing waits for them past the node
    watcher.shutdownNow();
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException("could not close Raft node " + id, e);
    }
  }
}
