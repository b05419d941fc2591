package io.bellows.cluster.server;

import io.bellows.cluster.RaftNode;
import io.bellows.cluster.ReplicatedLog;
import io.bellows.util.RefusedException;
import io.bellows.util.TableNotFoundException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A member's part in moving regions' replicas (docs/design/cluster.md, "Moving a replica"): the
 * member a replica moves to seeds it from a checkpoint and joins the group; the member it moves
 * from removes its replica once the move is done; and whoever drives a move (the member a client's
 * call reached, or meta's leader resuming a move a crash left) changes the group's members and
 * ends the move in meta.
 *
 * <p>What this member does for a region is decided from the catalog as it is once this member's
 * meta has applied everything committed ({@link #reconcile}), never from an entry alone: a restart
 * replays meta's whole log, and an old move's entries must not seed or remove a replica that later
 * entries placed otherwise.
 */
final class ReplicaMoves {
  /** The engine's messages, under its name. */
  private static final Logger LOG = LoggerFactory.getLogger(ReplicatedEngine.class);
  /** How long a driver waits for the new member to seed its replica and join the group (a checkpoint's fetch). */
  static final long SEED_WAIT_MS = 120_000;
  /**
   * How often meta's leader looks for replica moves under way that no one drives (their driver
   * crashed): one still there a pass later is driven to its end by meta's leader.
   */
  static final long MOVE_RESUME_MS = 30_000;
  /** How often meta's leader looks for replicas of members that leave (down too long, decommissioned). */
  static final long REPAIR_EVERY_MS = 5_000;
  /** The most replica moves one re-replication pass begins: each copies a region's files. */
  static final int REREPLICATE_MAX_MOVES = 4;
  /** How long a reconciliation waits for this member's meta to apply what is committed before it tries again. */
  private static final long META_WAIT_MS = 10_000;

  /** What the moves need of the member. */
  interface Host {
    String selfId();

    RaftNode node();

    List<RaftNode.Peer> metaPeers();

    /** This member's replica of meta. */
    ReplicatedLog meta();

    /** The Raft peers of these member ids, in the members' order. */
    List<RaftNode.Peer> peers(List<String> ids);

    /** Whether this member has a replica of {@code group} open and its group joined. */
    boolean holds(UUID group);

    /**
     * Opens this member's replica of region {@code r} of table {@code t}, seeds it with a checkpoint
     * of the first of {@code sources} that hands one, and adds its group knowing {@code members} as
     * the group's members (the old ones, without this member: the leader's membership change tells
     * it the new ones).
     */
    void seedAndJoin(MetaCatalog.TableEntry t, MetaCatalog.RegionEntry r, List<String> sources, List<String> members);

    /** Records this member's replica of {@code group} removed, leaves the group and deletes the replica. */
    void remove(UUID group);

    boolean closed();
  }

  private final MetaCatalog catalog;
  private final MemberBook book;
  /** How long meta's leader goes without a member's answer before it takes the member for down. */
  private final long silentMemberMillis;
  /** How long a member stays silent before its replicas move (zero: never). */
  private final Duration rereplicateAfter;
  /** The moves under way at meta's leader's last resume pass: the next pass drives those still there. */
  private final Set<UUID> movesSeen = ConcurrentHashMap.newKeySet();
  private final Host host;
  private final ScheduledExecutorService worker;
  /** Drives moves resumed here: apart from {@link #worker}, which may have to seed the replica a drive waits for. */
  private final ScheduledExecutorService driver;
  /** The moves this member drives now: a second driver here waits for nothing, the first ends it. */
  private final Set<UUID> driving = ConcurrentHashMap.newKeySet();

  ReplicaMoves(MetaCatalog catalog, MemberBook book, long silentMemberMillis, Duration rereplicateAfter,
      Host host) {
    this.catalog = catalog;
    this.book = book;
    this.silentMemberMillis = silentMemberMillis;
    this.rereplicateAfter = rereplicateAfter;
    this.host = host;
    this.worker = Executors.newSingleThreadScheduledExecutor(MemberWork.daemon("bellows-replica-moves"));
    this.driver = Executors.newSingleThreadScheduledExecutor(MemberWork.daemon("bellows-move-driver"));
  }

  /** Meta applied an entry of a move of region {@code group}'s replica: this member looks at what it must do. */
  void kick(UUID group) {
    if (!worker.isShutdown()) {
      worker.execute(() -> reconcile(group));
    }
  }

  /**
   * Once this member's meta has applied every committed entry: seeds and joins the region's replica
   * if a move to this member is under way and it has none; removes its replica if the region's
   * peers no longer name it and no move from it is under way. Anything else is left as it is.
   */
  private void reconcile(UUID group) {
    if (host.closed()) {
      return;
    }
    try {
      if (!host.node().members().awaitApplied(ReplicatedEngine.META, host.metaPeers(), host.selfId(), META_WAIT_MS)) {
        worker.schedule(() -> reconcile(group), 1, TimeUnit.SECONDS);
        return;
      }
      MetaCatalog.ReplicaMove m = catalog.moveOf(group);
      MetaCatalog.TableEntry t = catalog.tableOf(group);
      if (t == null) {
        return; // dropped (the drop removes the replicas) or split (the split does)
      }
      MetaCatalog.RegionEntry r = t.regions().stream().filter(g -> g.group().equals(group)).findFirst().orElseThrow();
      String self = host.selfId();
      boolean wanted = r.peers().contains(self);
      boolean held = host.holds(group);
      if (wanted && !held && m != null && m.to().equals(self)) {
        List<String> sources = new ArrayList<>(r.peers());
        sources.remove(self);
        sources.add(m.from()); // the member it leaves last: it may be the one that is down
        // The group is added knowing its old members only. A replica that counts itself a member
        // before the leader does stands for election when it hears no leader, and a member refused
        // as "not in the configuration" shuts its replica down (Ratis); one outside the
        // configuration it knows never stands, and the membership change reaches it through the log.
        List<String> old = new ArrayList<>(r.peers());
        old.set(old.indexOf(self), m.from());
        host.seedAndJoin(t, r, sources, old);
        LOG.info("member {} seeded its replica of region {} (group {}) and joined the group", self, r.id(), group);
      } else if (!wanted && held && m == null) {
        host.remove(group);
        LOG.info("member {} removed its replica of region {} (group {}): its move is done", self, r.id(), group);
      }
    } catch (RuntimeException e) {
      if (host.closed()) {
        return;
      }
      LOG.warn("member {}: the replica of group {} is not where the catalog puts it yet ({}); trying again in 5 s",
          host.selfId(), group, e.toString(), e);
      worker.schedule(() -> reconcile(group), 5, TimeUnit.SECONDS);
    }
  }

  /**
   * Drives move {@code m} to its end: waits (at most {@link #SEED_WAIT_MS}) for the new member to
   * answer for the group, hands the leadership away from the member it leaves (which would step
   * down in the change, an election's pause), changes the group's members (the leader catches the
   * new member up first), and appends the move's end to meta. Each step can be asked again: a
   * change made already changes nothing, a move ended already is not ended twice. Returns whether
   * it ended the move here.
   *
   * @throws IllegalStateException when a step fails (the move stays under way; driving it again goes on)
   */
  boolean drive(MetaCatalog.ReplicaMove m) {
    if (!driving.add(m.group())) {
      return false;
    }
    try {
      MetaCatalog.TableEntry t = catalog.tableOf(m.group());
      if (t == null || !m.equals(catalog.moveOf(m.group()))) {
        return false; // ended, or the table dropped
      }
      MetaCatalog.RegionEntry r = t.regions().stream().filter(g -> g.group().equals(m.group())).findFirst()
          .orElseThrow();
      RaftNode n = host.node();
      List<String> newIds = r.peers();
      List<String> oldIds = new ArrayList<>(newIds);
      oldIds.set(oldIds.indexOf(m.to()), m.from());
      List<String> everyId = new ArrayList<>(oldIds);
      everyId.add(m.to());
      List<RaftNode.Peer> every = host.peers(everyId);
      long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SEED_WAIT_MS);
      while (!n.members().answersFor(m.group(), every, m.to())) {
        if (System.nanoTime() > end || host.closed()) {
          throw new IllegalStateException("member " + m.to() + " did not seed its replica of region " + r.id()
              + " and join its group within " + SEED_WAIT_MS / 1000 + " s (down, or its checkpoint's fetch failed:"
              + " its log says why)");
        }
        sleep(200); // polling another process's progress
      }
      String leader = n.members().leaderSeenBy(m.group(), host.peers(oldIds));
      if (m.from().equals(leader)) {
        String other = oldIds.stream().filter(p -> !p.equals(m.from())).findFirst().orElse(null);
        if (other != null) {
          try {
            n.moveLeadership(m.group(), host.peers(oldIds), other);
          } catch (RuntimeException e) {
            LOG.info("{}: the leadership stays with {}, which steps down in the change ({})", m.group(), leader,
                e.toString());
          }
        }
      }
      n.members().change(m.group(), every, host.peers(newIds));
      byte[] reply = ReplicatedEngine.join(n.appendThroughLeader(ReplicatedEngine.META, host.metaPeers(),
          MetaCatalog.movedReplica(m)));
      boolean ended = new String(reply, StandardCharsets.UTF_8).equals(MetaCatalog.DONE);
      LOG.info("the replica of region {} (group {}) moved from {} to {}", r.id(), m.group(), m.from(), m.to());
      return ended;
    } finally {
      driving.remove(m.group());
    }
  }

  /**
   * Moves a replica of region {@code index} of table {@code t} to member {@code to}, which holds
   * none (HBase's {@code move} of a region to a server that does not serve it): from the member of
   * its peers that is down to meta's leader, else from the one, other than the region's leader,
   * that holds the most replicas. Appends the move to meta through its leader, then drives it here
   * ({@link #drive}): {@code to} seeds its replica from a checkpoint and joins, the
   * group's members change, and the move ends in meta. Returns the region as it is then.
   *
   * @throws RefusedException when {@code to} is down, a move of the region is under
   *     way, or a step failed (the move then stays under way, and meta's leader drives it on)
   */
  MetaCatalog.RegionEntry moveReplica(MetaCatalog.TableEntry t, int index, String to) {
    RaftNode n = host.node();
    MetaCatalog.RegionEntry g = t.regions().get(index);
    String what = ReplicatedEngine.what(t, index);
    if (!n.members().answersFor(ReplicatedEngine.META, host.metaPeers(), to)) {
      throw new RefusedException("member " + to + " did not answer (down, or cut off): the replicas of "
          + what + " stay on " + g.peers());
    }
    List<String> inMeta = n.members().of(ReplicatedEngine.META);
    if (inMeta != null && !inMeta.contains(to)) {
      throw new RefusedException("member " + to + " is not in meta's group yet (add_server adds it once it answers):"
          + " the replicas of " + what + " stay on " + g.peers());
    }
    if (catalog.decommissioned().contains(to)) {
      throw new RefusedException("member " + to + " is decommissioned: no replica moves there"
          + " (recommission_regionserver takes it back)");
    }
    String from = moveSource(n, g);
    MetaCatalog.ReplicaMove m = new MetaCatalog.ReplicaMove(t.descriptor().name(), t.id(), g.group(), from, to);
    byte[] entry = MetaCatalog.moveReplica(m.table(), m.tableId(), m.group(), from, to);
    byte[] answer = ReplicatedEngine.join(n.appendThroughLeader(ReplicatedEngine.META, host.metaPeers(), entry));
    String reply = new String(answer, StandardCharsets.UTF_8);
    switch (reply) {
      case MetaCatalog.MOVING -> { }
      case MetaCatalog.NOT_FOUND ->
          throw new TableNotFoundException("table '" + t.descriptor().name() + "' was dropped");
      case MetaCatalog.MOVE_PENDING -> throw new RefusedException("a replica of " + what
          + " is moving already: move it once that move is done");
      default -> throw new RefusedException("the replicas of " + what
          + " changed meanwhile (" + reply + "): ask again");
    }
    LOG.info("member {}: moving the replica of {} from {} to {} as a client asked", host.selfId(), what, from, to);
    try {
      // Meta's leader has applied the move; this member's catalog may not have yet, and a drive
      // that finds no move under way here returns at once, before the new member has joined.
      if (!n.members().awaitApplied(ReplicatedEngine.META, host.metaPeers(), host.selfId(), META_WAIT_MS)) {
        throw new IllegalStateException("this member's catalog did not apply the move within "
            + META_WAIT_MS / 1000 + " s");
      }
      if (!drive(m)) {
        awaitEnd(m); // another driver here (meta's leader resuming it) ends it
      }
    } catch (RuntimeException e) {
      throw new RefusedException("the move of " + what + "'s replica from " + from + " to "
          + to + " is under way but did not end here: " + e.getMessage()
          + " (meta's leader drives it on)", e);
    }
    MetaCatalog.TableEntry now = catalog.tableOf(g.group());
    return now == null ? g : now.regions().stream().filter(r -> r.group().equals(g.group())).findFirst().orElse(g);
  }

  /** Waits (at most {@link #SEED_WAIT_MS}) until move {@code m} is no longer under way in this member's catalog. */
  private void awaitEnd(MetaCatalog.ReplicaMove m) {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SEED_WAIT_MS);
    while (m.equals(catalog.moveOf(m.group()))) {
      if (System.nanoTime() > end || host.closed()) {
        throw new IllegalStateException("the move did not end within " + SEED_WAIT_MS / 1000 + " s");
      }
      sleep(200); // polling another driver's progress
    }
  }

  /**
   * The member a replica moves away from: a peer silent to meta's leader (down), else the peer,
   * other than the region's leader, holding the most replicas (ties: the last in the peers).
   */
  private String moveSource(RaftNode n, MetaCatalog.RegionEntry g) {
    Set<String> down = new java.util.HashSet<>(catalog.decommissioned());
    if (host.meta().isLeader()) {
      down.addAll(n.members().silentPeers(ReplicatedEngine.META, silentMemberMillis));
    }
    for (String p : g.peers()) {
      if (down.contains(p)) {
        return p;
      }
    }
    String leader = n.members().leaderSeenBy(g.group(), host.peers(g.peers()));
    Map<String, Integer> held = Placement.held(catalog);
    String best = null;
    for (String p : g.peers()) {
      if (p.equals(leader) && g.peers().size() > 1) {
        continue;
      }
      if (best == null || held.getOrDefault(p, 0) >= held.getOrDefault(best, 0)) {
        best = p;
      }
    }
    return best;
  }

  /**
   * On meta's leader: the replicas of members that are leaving move to members that stay — of
   * members silent to it for the re-replication delay (unless that is off), and of members
   * decommissioned — onto live members holding none of the region and not decommissioned, those
   * holding fewest replicas first, at most {@link #REREPLICATE_MAX_MOVES} begun a pass, each driven
   * to its end on the move driver (docs/design/cluster.md, "Placing and moving replicas"). A region
   * with a move under way is left alone; so is one with no member to take the replica.
   */
  void rereplicate() {
    try {
      if (host.closed() || !host.meta().isLeader()) {
        return;
      }
      RaftNode n = host.node();
      Set<String> down = rereplicateAfter.isZero() ? Set.of()
          : n.members().silentPeers(ReplicatedEngine.META, rereplicateAfter.toMillis());
      Set<String> retiring = new java.util.HashSet<>(catalog.decommissioned());
      if (down.isEmpty() && retiring.isEmpty()) {
        return;
      }
      // Not down long, but not answering either: no replica goes there.
      Set<String> unsure = n.members().silentPeers(ReplicatedEngine.META, silentMemberMillis);
      Map<String, Integer> held = Placement.held(catalog);
      int begun = 0;
      for (MetaCatalog.TableEntry t : catalog.tables()) {
        for (MetaCatalog.RegionEntry g : t.regions()) {
          String from = g.peers().stream().filter(down::contains).findFirst()
              .orElse(g.peers().stream().filter(retiring::contains).findFirst().orElse(null));
          if (from == null || catalog.moveOf(g.group()) != null || begun >= REREPLICATE_MAX_MOVES) {
            continue;
          }
          String to = null;
          List<String> inMeta = n.members().of(ReplicatedEngine.META); // a member added but not yet in meta takes none
          for (String id : book.ids()) {
            if (inMeta == null || !inMeta.contains(id)) {
              continue;
            }
            if (!g.peers().contains(id) && !unsure.contains(id) && !retiring.contains(id)
                && (to == null || held.getOrDefault(id, 0) < held.getOrDefault(to, 0))) {
              to = id;
            }
          }
          if (to == null) {
            continue;
          }
          String reply = new String(ReplicatedEngine.join(host.meta().append(MetaCatalog.moveReplica(
              t.descriptor().name(), t.id(), g.group(), from, to))), StandardCharsets.UTF_8);
          if (!reply.equals(MetaCatalog.MOVING)) {
            continue;
          }
          held.merge(to, 1, Integer::sum);
          begun++;
          LOG.warn("member {}: moving member {}'s replica of region {} of table '{}' to {}: {}", host.selfId(), from,
              g.id(), t.descriptor().name(), to, down.contains(from)
                  ? "it has been silent for over " + rereplicateAfter.toSeconds() + " s" : "it is decommissioned");
          resume(Set.of(g.group()));
        }
      }
    } catch (RuntimeException e) {
      LOG.warn("member {}: a re-replication pass failed: {}", host.selfId(), e.toString(), e);
    }
  }

  /**
   * On meta's leader, every {@link #MOVE_RESUME_MS}: the replica moves that were under way at the
   * last pass and still are (their driver crashed or gave up) are driven to their end here.
   */
  void resumeMoves() {
    try {
      if (host.closed() || !host.meta().isLeader()) {
        movesSeen.clear();
        return;
      }
      List<MetaCatalog.ReplicaMove> now = catalog.moves();
      Set<UUID> stale = new java.util.HashSet<>();
      for (MetaCatalog.ReplicaMove m : now) {
        if (movesSeen.contains(m.group())) {
          stale.add(m.group());
        }
      }
      movesSeen.clear();
      now.forEach(m -> movesSeen.add(m.group()));
      if (!stale.isEmpty()) {
        resume(stale);
      }
    } catch (RuntimeException e) {
      LOG.warn("member {}: resuming replica moves failed: {}", host.selfId(), e.toString(), e);
    }
  }

  /**
   * Schedules meta's leader's passes on {@code timer}: moves resumed, and the re-replication pass
   * (every 5 s, more often when the re-replication delay is under 20 s).
   */
  void schedule(ScheduledExecutorService timer) {
    timer.scheduleWithFixedDelay(this::resumeMoves, MOVE_RESUME_MS, MOVE_RESUME_MS, TimeUnit.MILLISECONDS);
    long every = rereplicateAfter.isZero() ? REPAIR_EVERY_MS
        : Math.max(1_000, Math.min(REPAIR_EVERY_MS, rereplicateAfter.toMillis() / 4));
    timer.scheduleWithFixedDelay(this::rereplicate, every, every, TimeUnit.MILLISECONDS);
  }

  /**
   * Drives the moves under way of the regions {@code groups} that no one here drives (meta's
   * leader, after a driver's crash), in the background.
   */
  void resume(Set<UUID> groups) {
    for (MetaCatalog.ReplicaMove m : catalog.moves()) {
      if (groups.contains(m.group()) && !driving.contains(m.group()) && !driver.isShutdown()) {
        driver.execute(() -> {
          try {
            drive(m);
          } catch (RuntimeException e) {
            LOG.warn("member {}: resuming the move of group {}'s replica from {} to {} failed: {}", host.selfId(),
                m.group(), m.from(), m.to(), e.toString());
          }
        });
      }
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  void close() {
    worker.shutdownNow();
    driver.shutdownNow();
  }
}
