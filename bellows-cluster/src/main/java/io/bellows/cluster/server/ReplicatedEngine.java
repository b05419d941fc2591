package io.bellows.cluster.server;

import io.bellows.atomic.Outcome;
import io.bellows.cluster.LeaderBalance;
import io.bellows.cluster.LogApplier;
import io.bellows.cluster.NotLeaderException;
import io.bellows.cluster.RaftNode;
import io.bellows.cluster.RaftSettings;
import io.bellows.cluster.RaftTls;
import io.bellows.cluster.ReplicatedLog;
import io.bellows.cluster.checkpoint.CheckpointInstaller;
import io.bellows.cluster.checkpoint.CheckpointProvider;
import io.bellows.cluster.checkpoint.CheckpointSession;
import io.bellows.cluster.checkpoint.CheckpointSource;
import io.bellows.cluster.region.RaftRegionLog;
import io.bellows.cluster.region.RegionSplitException;
import io.bellows.region.RegionClosedException;
import io.bellows.cluster.region.StaleLeadershipException;
import io.bellows.config.EngineOptions;
import io.bellows.engine.CallId;
import io.bellows.engine.ChainedScanner;
import io.bellows.engine.ClusterStatus;
import io.bellows.engine.Engine;
import io.bellows.engine.RegionInfo;
import io.bellows.engine.RowMutation;
import io.bellows.engine.RowOperation;
import io.bellows.engine.RowRanges;
import io.bellows.engine.TableRef;
import io.bellows.region.Region;
import io.bellows.scan.Consistency;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.store.Store;
import io.bellows.store.StoreFile;
import io.bellows.util.BackgroundError;
import io.bellows.util.Bytes;
import io.bellows.util.EngineClosedException;
import io.bellows.util.StorageException;
import io.bellows.util.TableNotEnabledException;
import io.bellows.util.TableNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One member's share of a replicated cluster, as an {@link Engine} a server serves: a {@link
 * RaftNode} holding a replica of the meta group (the catalog, {@link MetaCatalog}) and of every
 * region of every table (each region a Raft group over its peers, {@link RaftRegionLog}; one
 * region per table created without split keys). A table created through any member is proposed to
 * meta on its leader, all its regions in one entry; every member opens its replicas of the table's
 * regions when it applies that entry. A member that starts without a replica of meta (a first
 * start, or its data directory lost) announces itself to meta, so that meta's leader sends it the
 * log ({@link MetaCatalog#memberJoined}).
 *
 * <p>Data calls run on the replica that leads its region; elsewhere they fail with {@link
 * RegionNotLeaderException} naming the leader's client address, before anything is applied. Reads
 * are linearizable: the leader confirms its leadership through the log's read index (or lease)
 * and has applied everything committed before the read began, then reads its own region. A read
 * that asks for {@link Consistency#TIMELINE} is answered by any replica from its own state, and
 * says so when it may be stale. Rows go to the region whose range holds them; a call whose rows
 * or scan span regions runs here only if this member leads them all (a client of the cluster sends
 * each region's part to its leader).
 *
 * <p>Its parts: {@link Replicas} (this member's replicas, each opened, joined, seeded and
 * removed), {@link ReplicaSplits} (regions split online), {@link ReplicaMoves} (replicas moved,
 * re-replicated, members decommissioned), {@link CatalogProposals} (the catalog's changes proposed
 * to meta) and {@link MemberWork} (budgets, caches and background threads the replicas share). This
 * class routes the calls: it finds a row's region, answers for a replica that does not lead, and
 * runs the call on one that does. Meta is never checkpointed: its log is replayed at a restart.
 *
 * <p>On disk, under the data directory: {@code raft/} (the node's logs), {@code regions/GROUP/}
 * per replica, with {@code region.txt} (the table's id, sequence base, the region's id and range
 * and the table's descriptor, so the replica opens at a restart before meta replays), the region's
 * stores in {@code region/} (made under {@code region.create/} and renamed whole) and the calls its
 * state machine answered in {@code answered-calls} (written at checkpoints; one an installed
 * checkpoint brought into {@code region/} is moved here before the log goes on); {@code
 * checkpoints/} holds the checkpoints this replica is handing to replicas behind its log, {@code
 * region.checkpoint/}, {@code region.new/}, {@code region.install} and {@code region.old/} a
 * checkpoint being installed ({@link CheckpointInstaller}); {@code regions/dropped} lists the groups
 * of replicas of dropped tables, whose directories and Raft logs are deleted (at the next start, if a
 * crash cut the drop short).
 */
public final class ReplicatedEngine implements Engine, CheckpointProvider {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicatedEngine.class);
  /** The meta group's id ("meta" in its first bytes). */
  public static final UUID META = UUID.fromString("6d657461-0000-0000-0000-000000000000");
  /**
   * Every region's sequence base: its ids are {@code BASE + index} (each group's indexes are its own,
   * and no region has a parent yet: a split's daughters will need bases above their parent's ids).
   */
  static final long BASE = 1L << 20;
  /**
   * How long creating a table waits for every member to hold its regions' logs ({@link
   * io.bellows.cluster.GroupMembers#awaitEveryReplica}): a few elections' worth, past which a member is taken for down.
   */
  static final long NEW_GROUP_WAIT_MS = 10_000;
  /**
   * How long a call to a replica that knows no leader waits for its group's election ({@link
   * #onLeader}): a first election (150–300 ms) and most after a leader's loss fit; half a client's
   * attempt deadline (2 s), so the answer still reaches it in time to go elsewhere.
   */
  static final long ELECTION_HOLD_MS = 1_000;
  /** How often meta's leader balances the regions' leaders by default (HBase's balancer runs as often). */
  public static final Duration DEFAULT_BALANCE_INTERVAL = Duration.ofMinutes(5);
  /** How many members hold a region's replicas by default ({@code cluster.replication}). */
  public static final int DEFAULT_REPLICATION = 3;
  /**
   * How long a member stays silent to meta's leader before its replicas are moved to live members
   * by default ({@code cluster.rereplicate.after.ms}): HDFS takes a datanode for dead after ten and a
   * half minutes; a restart, a GC or a short outage must not move data.
   */
  public static final Duration DEFAULT_REREPLICATE_AFTER = Duration.ofMinutes(10);

  /** How often meta's leader looks for members recorded in meta but not yet in its group ({@link MemberAdmissions#pass}). */
  static final long ADMISSION_PASS_MS = 5_000;

  /** The most leaderships one balancing pass hands over: each is a brief pause of its region's writes. */
  static final int BALANCE_MAX_MOVES = 8;

  /** How long meta's leader goes without a member's answer before it takes the member for down: two election timeouts. */
  private final long silentMemberMillis;
  private final EngineOptions options;
  /** The cluster's members as this member knows them: the member file's and those meta added since. */
  private final MemberBook book;
  private final Members.Member self;
  private final MetaCatalog catalog;
  /** This member's replicas of the tables' regions: opened, joined, seeded, removed. */
  private final Replicas replicas;
  /** This member's proposals of tables' creations, disables, enables and drops to meta. */
  private final CatalogProposals proposals;
  private final CompletableFuture<RaftNode> started = new CompletableFuture<>();
  /** What the replicas share: budgets, caches, flush and compaction threads. */
  private final MemberWork work;
  /** Runs the leader-balancing passes, when they are on. */
  private final ScheduledExecutorService balancer = Executors.newSingleThreadScheduledExecutor(MemberWork.daemon("bellows-balancer"));
  private final ReplicaSplits splits;
  /** This member's part in moving replicas: seeding, removing, driving. */
  private final ReplicaMoves moves;
  /** Members added to the running cluster, taken into meta's group on meta's leader. */
  private final MemberAdmissions admissions;
  /** How many members hold each new region's replicas, and when the replicas of a silent member move. */
  private final Replication replication;
  private final RaftNode node;
  private final ReplicatedLog meta;
  /** TEST ONLY: injected faults ({@code --test-faults}), or null: always in production. */
  private final TestFaultFile testFaults;
  private volatile boolean closed;

  private ReplicatedEngine(Path data, EngineOptions options, Members members, String selfId, RaftSettings raft,
      TestFaultFile testFaults, CheckpointSource checkpointSource, RaftTls raftTls, Duration balanceInterval,
      Replication replication) {
    this.testFaults = testFaults;
    this.replication = replication;
    this.silentMemberMillis = 2 * raft.electionMax().toMillis();
    ReplicaDirectories directories = new ReplicaDirectories(data);
    this.options = options;
    this.book = new MemberBook(members);
    this.self = members.member(selfId);
    this.work = new MemberWork(options, this::regionsNow, this::flushed, this::compacted);
    this.catalog = new MetaCatalog(members.foundingIds(), new MetaCatalog.Effects() {
      @Override
      public void opened(MetaCatalog.TableEntry t) {
        replicas.opened(t);
      }

      @Override
      public void disabled(MetaCatalog.TableEntry t) {
        replicas.disabled(t);
      }

      @Override
      public void dropped(MetaCatalog.TableEntry t) {
        replicas.dropped(t);
      }

      @Override
      public void split(MetaCatalog.TableEntry t, MetaCatalog.Split s) {
        splits.kick(); // this member may lead the parent
      }

      @Override
      public void moving(MetaCatalog.ReplicaMove m) {
        if (m.to().equals(selfId) || m.from().equals(selfId)) {
          moves.kick(m.group());
        }
      }

      @Override
      public void moved(MetaCatalog.ReplicaMove m) {
        if (m.from().equals(selfId)) {
          moves.kick(m.group());
        }
      }

      @Override
      public void memberAdded(Members.Member m) {
        if (book.add(m)) {
          checkpointSource.learn(m.id(), m.clientAddress());
          LOG.info("member {}: member {} joins the cluster (Raft {}, clients {})", selfId, m.id(), m.raftAddress(),
              m.clientAddress());
        }
      }

      @Override
      public void retired(MetaCatalog.Split s) {
        Replica p = replicas.get(s.parent().group());
        if (p != null && p.applier.isSplit()) {
          splits.remove(p.group); // else its split's apply removes it when it is done
        }
      }
    });
    this.replicas = new Replicas(selfId, directories, options, work, catalog, book, started, checkpointSource,
        new Replicas.Splits() {
          @Override
          public void reopened(Replica r) {
            splits.reopened(r);
          }

          @Override
          public void split(Replica r, String text, io.bellows.cluster.LogPosition at) {
            splits.split(r, text, at);
          }
        });
    this.splits = new ReplicaSplits(directories, catalog, new ReplicaSplits.Host() {
      @Override
      public Replica replica(UUID group) {
        return replicas.get(group);
      }

      @Override
      public void openAndJoin(Replica parent, MetaCatalog.RegionEntry d) {
        replicas.openAndJoin(d);
      }

      @Override
      public java.util.Collection<Replica> replicas() {
        return replicas.all();
      }

      @Override
      public void recordRemoved(UUID group) {
        replicas.recordRemoved(group);
      }

      @Override
      public void remove(UUID group) {
        if (!closed) {
          replicas.remove(group);
        }
      }

      @Override
      public boolean closed() {
        return closed;
      }

      @Override
      public long silentMemberMillis() {
        return silentMemberMillis;
      }

      @Override
      public String selfId() {
        return self.id();
      }

      @Override
      public List<RaftNode.Peer> metaPeers() {
        return book.peers();
      }

      @Override
      public CompletableFuture<byte[]> retire(MetaCatalog.Split s) {
        String name = catalog.tables().stream().filter(t -> t.id() == s.tableId()).map(t -> t.descriptor().name())
            .findFirst().orElse(null);
        if (name == null) {
          return CompletableFuture.completedFuture(new byte[0]); // dropped: its drop removes the parent
        }
        return started.join().appendThroughLeader(META, book.peers(), MetaCatalog.retireRegion(name, s.tableId(),
            s.parent().group()));
      }

      @Override
      public RaftNode node() {
        return started.join();
      }

      @Override
      public List<RaftNode.Peer> peersOf(MetaCatalog.RegionEntry region) {
        return replicas.peersOf(region);
      }
    });
    this.moves = new ReplicaMoves(catalog, book, silentMemberMillis, replication.rereplicateAfter(),
        new ReplicaMoves.Host() {
      @Override
      public String selfId() {
        return self.id();
      }

      @Override
      public RaftNode node() {
        return started.join();
      }

      @Override
      public List<RaftNode.Peer> metaPeers() {
        return book.peers();
      }

      @Override
      public ReplicatedLog meta() {
        return meta;
      }

      @Override
      public List<RaftNode.Peer> peers(List<String> ids) {
        return book.peers(ids);
      }

      @Override
      public boolean holds(UUID group) {
        return replicas.holds(group);
      }

      @Override
      public void seedAndJoin(MetaCatalog.TableEntry t, MetaCatalog.RegionEntry r, List<String> sources,
          List<String> groupMembers) {
        replicas.seedAndJoin(t, r, sources, groupMembers);
      }

      @Override
      public void remove(UUID group) {
        replicas.recordRemoved(group);
        replicas.remove(group);
      }

      @Override
      public boolean closed() {
        return closed;
      }
    });
    this.admissions = new MemberAdmissions(catalog, book, members.foundingIds(), new MemberAdmissions.Host() {
      @Override
      public RaftNode node() {
        return started.join();
      }

      @Override
      public ReplicatedLog meta() {
        return meta;
      }

      @Override
      public boolean closed() {
        return closed;
      }
    });
    this.node = RaftNode.start(selfId, raft, this::applierOf, testFaults, raftTls);
    started.complete(node);
    replicas.finishRemovals(); // a drop a crash cut short: Ratis found the group's log again
    for (Replica r : replicas.all()) {
      if (node.holds(r.group)) {
        replicas.bind(r); // else an apply thread is adding its group (a split's daughter replayed): it binds it then
      }
    }
    for (Replica r : new ArrayList<>(replicas.all())) {
      if (r.applier.isSplit() && !replicas.isDropped(r.group)) {
        splits.joinDaughters(r); // a member that died between a split's marker and joining the daughters
      }
    }
    splits.start();
    boolean joined = node.holds(META);
    if (!joined && !self.added()) {
      refuseIfNotFounding(members);
    }
    // A member added to the running cluster joins meta knowing the others only: meta's leader adds it
    // (MemberAdmissions), and a replica that counted itself a member before would stand for election.
    this.meta = joined ? node.log(META)
        : node.addGroup(META, self.added() ? book.peers().stream().filter(p -> !p.id().equals(selfId)).toList()
            : book.peers(members.foundingIds()));
    this.proposals = new CatalogProposals(meta, catalog, book, selfId, started, silentMemberMillis,
        replication.replication(),
        this::entry, this::notLeader);
    if (!joined) {
      announceJoined(); // an added member's too: after a disk loss it needs meta's log as a founder does
    }
    moves.schedule(balancer);
    balancer.scheduleWithFixedDelay(admissions::pass, ADMISSION_PASS_MS, ADMISSION_PASS_MS, TimeUnit.MILLISECONDS);
    if (!balanceInterval.isZero()) {
      long ms = balanceInterval.toMillis();
      balancer.scheduleWithFixedDelay(this::balanceLeaders, ms, ms, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * A member that starts without a replica of meta, its line in the member file not marked {@code
   * added}, counts itself among meta's first members: a cluster's first start, or a lost disk. If
   * a running member's meta knows no such member, it is a new member whose line lacks the mark: it
   * would stand for meta's elections, and Ratis would shut its replica down. Refused, naming the
   * fix, with everything started so far closed.
   */
  private void refuseIfNotFounding(Members file) {
    List<RaftNode.Peer> others = book.peers(file.foundingIds()).stream().filter(p -> !p.id().equals(self.id())).toList();
    List<String> inMeta = node.members().membersSeenBy(META, others);
    if (inMeta != null && !inMeta.contains(self.id())) {
      close();
      throw new IllegalStateException("member " + self.id() + " is not in meta's group " + inMeta + ": a member added"
          + " to a running cluster is marked '" + Members.ADDED + "' at the end of its line in the member file ('"
          + self.id() + " " + self.raftAddress() + " " + self.clientAddress() + " " + Members.ADDED + "'), then added"
          + " with add_server");
    }
  }

  /**
   * A leader-balancing pass ({@link RaftNode#balanceLeaders}, at most {@link #BALANCE_MAX_MOVES}
   * hand-overs) over the tables' regions, on meta's leader only: one member decides, so two passes
   * never cross, and it judges the members by meta's view of who is down. Returns the hand-overs
   * made; nothing on another member.
   */
  public List<LeaderBalance.Move> balanceLeaders() {
    return balanceLeaders(false);
  }

  /**
   * A leader-balancing pass asked for by a client ({@link io.bellows.engine.Engine#balance}): on
   * meta's leader, as the timer's; another member answers that it does not lead the catalog.
   */
  @Override
  public int balance() {
    check();
    if (!meta.isLeader()) {
      throw notLeader("the catalog", meta.leader());
    }
    return balanceLeaders(true).size();
  }

  /**
   * Hands the leadership of the region of {@code table} holding {@code row} to {@code member}, or
   * with null to the replica's member that leads fewest regions as this member knows them (among
   * those not silent to this member where it leads the region or meta), through Ratis' transfer,
   * asked of the region's leader from whichever member the call reached ({@link
   * RaftNode#moveLeadership}). Refused: an unknown table ({@link TableNotFoundException}) or member,
   * a member that holds no replica of the region ({@link IllegalArgumentException}: moving a replica
   * is not built), a member that does not answer or a leader that did not hand over ({@link
   * io.bellows.util.RefusedException}); {@code NOT_LEADER} without a leader while the region has none known
   * here or this member has not joined its group yet (retry).
   */
  @Override
  public io.bellows.engine.LeaderMove moveLeader(String table, byte[] row, String member) {
    MetaCatalog.TableEntry t = entry(table);
    int index = t.ranges().indexOf(row);
    MetaCatalog.RegionEntry g = t.regions().get(index);
    RaftNode n = started.join();
    String to = member;
    if (to != null) {
      book.members().member(to); // an unknown member: IllegalArgumentException naming the members
      if (!g.peers().contains(to)) {
        g = moves.moveReplica(t, index, to);
      }
    }
    if (!n.holds(g.group())) {
      if (to == null) {
        throw new RegionNotLeaderException("member " + self.id() + " holds no replica of " + what(t, index)
            + "; ask one of its members " + g.peers(), book.members().clientAddressOf(g.peers().get(0)));
      }
    } else if (to == null) {
      to = leastLoaded(n, g);
    }
    try {
      String from = n.moveLeadership(g.group(), replicas.peersOf(g), to);
      if (!from.equals(to)) {
        LOG.info("member {}: the leadership of {} was handed from {} to {} as a client asked", self.id(), what(t, index),
            from, to);
      }
      return new io.bellows.engine.LeaderMove(from, to);
    } catch (NotLeaderException e) {
      throw notLeader(what(t, index), null);
    } catch (IllegalStateException e) {
      throw new io.bellows.util.RefusedException(what(t, index) + ": " + e.getMessage(), e);
    }
  }

  /**
   * Decommissions {@code ids} on meta's leader (another member answers that it does not lead the
   * catalog): refused for an unknown member, and when fewer members than a region's replicas would
   * be left; then meta records them and its leader's next passes move their replicas off ({@link
   * ReplicaMoves#rereplicate}). Returns once the entry is applied here.
   */
  @Override
  public void decommission(List<String> ids) {
    check();
    if (!meta.isLeader()) {
      throw notLeader("the catalog", meta.leader());
    }
    if (ids.isEmpty()) {
      throw new IllegalArgumentException("name at least one member to decommission");
    }
    ids.forEach(book.members()::member); // an unknown member: IllegalArgumentException naming the members
    Set<String> after = new java.util.TreeSet<>(book.ids());
    after.removeAll(catalog.decommissioned());
    after.removeAll(ids);
    if (after.size() < Math.min(replication.replication(), book.ids().size())) {
      throw new io.bellows.util.RefusedException("decommissioning " + ids + " would leave " + after.size()
          + " members for regions of " + replication.replication() + " replicas: nothing changed");
    }
    join(meta.append(MetaCatalog.decommission(ids.stream().map(String::strip).toList())));
    LOG.info("member {}: members {} decommissioned; their replicas move to the others", self.id(), ids);
  }

  /**
   * Adds member {@code id} to the cluster on meta's leader (another member answers that it does not
   * lead the catalog): meta records it and takes it into its group once it answers ({@link
   * MemberAdmissions#add}).
   */
  @Override
  public void addServer(String id, String raftAddress, String clientAddress) {
    check();
    if (!meta.isLeader()) {
      throw notLeader("the catalog", meta.leader());
    }
    admissions.add(Members.Member.checked("", id == null ? null : id.strip(), raftAddress == null ? "" : raftAddress.strip(),
        clientAddress == null ? "" : clientAddress.strip(), true));
  }

  /** Takes member {@code id} back on meta's leader: new replicas may go on it again (nothing moves back by itself). */
  @Override
  public void recommission(String id) {
    check();
    if (!meta.isLeader()) {
      throw notLeader("the catalog", meta.leader());
    }
    book.members().member(id);
    String reply = new String(join(meta.append(MetaCatalog.recommission(id))), StandardCharsets.UTF_8);
    if (!reply.equals(MetaCatalog.DONE)) {
      throw new IllegalArgumentException("member " + id + " is not decommissioned");
    }
  }

  @Override
  public List<String> decommissioned() {
    check();
    return catalog.decommissioned();
  }

  /**
   * The member of the region's replicas, but its leader, that leads fewest regions as this member
   * knows them (ties: the first in the region's peers); members silent to this member's replica of
   * the region or of meta, where it leads them, are passed over.
   */
  private String leastLoaded(RaftNode n, MetaCatalog.RegionEntry g) {
    String leader = n.leaderOf(g.group());
    if (leader == null) {
      throw notLeader("the region's group " + g.group(), null);
    }
    Set<String> silent = new java.util.HashSet<>(n.members().silentPeers(g.group(), silentMemberMillis));
    silent.addAll(n.members().silentPeers(META, silentMemberMillis));
    Map<String, Integer> led = n.leaderships(Set.of(META));
    String best = null;
    for (String p : g.peers()) {
      if (p.equals(leader) || silent.contains(p)) {
        continue;
      }
      if (best == null || led.getOrDefault(p, 0) < led.getOrDefault(best, 0)) {
        best = p;
      }
    }
    if (best == null) {
      throw new IllegalStateException("no other live member holds a replica of the region's group " + g.group()
          + " to hand its leadership to (its replicas: " + g.peers() + ", led by " + leader + ")");
    }
    return best;
  }

  /** The pass; {@code rethrow}: a failure goes to the caller (a client's call), else it is logged (the timer's). */
  private List<LeaderBalance.Move> balanceLeaders(boolean rethrow) {
    try {
      if (closed || !meta.isLeader()) {
        return List.of();
      }
      RaftNode n = started.join();
      Set<String> down = n.members().silentPeers(META, silentMemberMillis);
      // Every region of the catalog, held here or not: on more members than the replication meta's
      // leader holds only some; the leader of one it does not hold is asked of its members.
      List<LeaderBalance.Group> groups = new ArrayList<>();
      Map<UUID, List<RaftNode.Peer>> peersOf = new java.util.HashMap<>();
      Set<String> live = new java.util.TreeSet<>();
      for (MetaCatalog.TableEntry t : catalog.tables()) {
        for (MetaCatalog.RegionEntry g : t.regions()) {
          if (catalog.moveOf(g.group()) != null) {
            continue; // its members are changing
          }
          List<RaftNode.Peer> peers = replicas.peersOf(g);
          String leader = n.holds(g.group()) ? n.leaderOf(g.group()) : n.members().leaderSeenBy(g.group(), peers);
          groups.add(new LeaderBalance.Group(g.group(), g.peers(), leader));
          peersOf.put(g.group(), peers);
          g.peers().stream().filter(p -> !down.contains(p)).forEach(live::add);
        }
      }
      return n.balanceLeaders(groups, peersOf, live, BALANCE_MAX_MOVES);
    } catch (RuntimeException e) {
      if (rethrow) {
        throw e;
      }
      LOG.warn("member {}: a leader-balancing pass failed: {}", self.id(), e.toString(), e);
      return List.of();
    }
  }

  /**
   * This member starts without a replica of meta: the cluster's first start, or a member that lost
   * its data directory. In the second case meta's leader still takes it for holding every entry it
   * acknowledged before, and sends it nothing while meta has no new entry (its heartbeats' refusals
   * do not move the leader back; cluster.md, "A member that lost its disk"): so the member appends
   * one, through whichever member leads, and meta's log reaches it (or, if the leader has paused
   * sending it anything but heartbeats, the node asks that leader to hand over its leadership:
   * RaftNode). In the
   * background: it waits for a leader.
   */
  private void announceJoined() {
    node.appendThroughLeader(META, book.peers(), MetaCatalog.memberJoined(self.id())).whenComplete((reply, error) -> {
      if (error == null) {
        LOG.info("member {} started without a replica of meta and announced itself to meta's leader", self.id());
      } else if (!closed) {
        LOG.warn("member {} could not announce itself to meta's leader: {}", self.id(), error.toString());
      }
    });
  }

  /**
   * Opens member {@code selfId}'s share of the cluster {@code members} on {@code data} (created the
   * first time): its Raft port is the member's, its logs under {@code data/raft}.
   */
  public static ReplicatedEngine open(Path data, EngineOptions options, Members members, String selfId) {
    return open(data, options, members, selfId, null, NO_CHECKPOINTS);
  }

  /** Refuses: a member opened without a source cannot install checkpoints (it stays behind, as it says). */
  private static final CheckpointSource NO_CHECKPOINTS = (group, leader) -> {
    throw new IOException("this member was opened without a checkpoint source: it cannot fetch one from " + leader);
  };

  /**
   * As {@link #open(Path, EngineOptions, Members, String)}, fetching the checkpoints a replica
   * behind its leader's log installs from {@code checkpoints} (the server's: over its internal
   * replication call).
   */
  public static ReplicatedEngine open(Path data, EngineOptions options, Members members, String selfId,
      CheckpointSource checkpoints) {
    return open(data, options, members, selfId, null, checkpoints);
  }

  /**
   * TEST ONLY: as {@link #open(Path, EngineOptions, Members, String, CheckpointSource)}, taking the
   * faults {@code testFaults} injects (partitions of the Raft transport, stale reads) unless it is
   * null; the engine closes it.
   */
  public static ReplicatedEngine open(Path data, EngineOptions options, Members members, String selfId,
      TestFaultFile testFaults, CheckpointSource checkpoints) {
    return open(data, options, members, selfId, testFaults, checkpoints, null);
  }

  /**
   * As {@link #open(Path, EngineOptions, Members, String, TestFaultFile, CheckpointSource)}, speaking
   * Raft with the other members over mutual TLS when {@code raftTls} is not null.
   */
  public static ReplicatedEngine open(Path data, EngineOptions options, Members members, String selfId,
      TestFaultFile testFaults, CheckpointSource checkpoints, RaftTls raftTls) {
    return open(data, options, members, selfId, testFaults, checkpoints, raftTls, RaftSettings.DEFAULT_ELECTION_MIN,
        RaftSettings.DEFAULT_ELECTION_MAX);
  }

  /**
   * As {@link #open(Path, EngineOptions, Members, String, TestFaultFile, CheckpointSource, RaftTls)},
   * with Raft's election timeouts drawn between {@code electionMin} and {@code electionMax}.
   */
  public static ReplicatedEngine open(Path data, EngineOptions options, Members members, String selfId,
      TestFaultFile testFaults, CheckpointSource checkpoints, RaftTls raftTls, Duration electionMin,
      Duration electionMax) {
    return open(data, options, members, selfId, testFaults, checkpoints, raftTls, electionMin, electionMax,
        DEFAULT_BALANCE_INTERVAL);
  }

  /**
   * As the overload before, with meta's leader running a leader-balancing pass every {@code
   * balanceInterval} (zero: never; {@link #balanceLeaders}).
   */
  public static ReplicatedEngine open(Path data, EngineOptions options, Members members, String selfId,
      TestFaultFile testFaults, CheckpointSource checkpoints, RaftTls raftTls, Duration electionMin,
      Duration electionMax, Duration balanceInterval) {
    return open(data, options, members, selfId, testFaults, checkpoints, raftTls, electionMin, electionMax,
        balanceInterval, Replication.DEFAULTS);
  }

  /**
   * How a member places, moves and repairs replicas: each new region's replicas on {@code
   * replication} members (all of them when there are no more; {@link Placement}), and, on meta's
   * leader, the replicas of a member silent for {@code rereplicateAfter} moved to live members
   * (zero: never).
   */
  public record Replication(int replication, Duration rereplicateAfter) {
    /** Three replicas, moved off a member silent for ten minutes. */
    public static final Replication DEFAULTS = new Replication(DEFAULT_REPLICATION, DEFAULT_REREPLICATE_AFTER);

    public Replication {
      if (replication < 1) {
        throw new IllegalArgumentException("cluster.replication must be at least 1, not " + replication);
      }
      if (rereplicateAfter.isNegative()) {
        throw new IllegalArgumentException("cluster.rereplicate.after.ms must not be negative");
      }
    }
  }

  /** As the overload before, placing and repairing replicas as {@code replication} says. */
  public static ReplicatedEngine open(Path data, EngineOptions options, Members members, String selfId,
      TestFaultFile testFaults, CheckpointSource checkpoints, RaftTls raftTls, Duration electionMin,
      Duration electionMax, Duration balanceInterval, Replication replication) {
    Members.Member m = members.member(selfId);
    RaftSettings raft = RaftSettings.of(m.raftHost(), m.raftPort(), data.resolve("raft"))
        .withElectionTimeouts(electionMin, electionMax);
    try {
      new ReplicaDirectories(data).create();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + data, e);
    }
    return new ReplicatedEngine(data, options, members, selfId, raft, testFaults, checkpoints, raftTls,
        balanceInterval, replication);
  }

  /** This member's id. */
  public String id() {
    return self.id();
  }

  /** The Raft node (tests wait on its leaders). */
  public RaftNode node() {
    return node;
  }

  /**
   * The time this member's replica of the table stamps {@code LATEST} cells and expires cells by:
   * the host's clock, moved ahead while it leads a term it began behind the newest timestamp the
   * region held ({@link RaftRegionLog#clock}). Tests that model the engine's answers follow it.
   */
  public long currentTimeMillis(String table) {
    Replica r = replicas.get(entry(table).group());
    io.bellows.util.Clock stamps = r == null ? null : r.log.stamps();
    return (stamps == null ? options.clock() : stamps).currentTimeMillis();
  }

  /** The group of a table's first region (its only one, for a table created without split keys). */
  public UUID group(String table) {
    return entry(table).group();
  }

  /** The members meta names as holding replicas of region {@code group} (empty: no such region now). */
  public List<String> replicaMembers(UUID group) {
    MetaCatalog.TableEntry t = catalog.tableOf(group);
    return t == null ? List.of() : t.regions().stream().filter(r -> r.group().equals(group)).findFirst()
        .map(MetaCatalog.RegionEntry::peers).orElse(List.of());
  }

  /** The groups of a table's regions, in key order. */
  public List<UUID> groups(String table) {
    return entry(table).regions().stream().map(MetaCatalog.RegionEntry::group).toList();
  }

  // ================================================================== replicas

  /** The applier of a group the node holds: meta's catalog, or a region's replica ({@link Replicas#applierOf}). */
  private LogApplier applierOf(UUID group) {
    return group.equals(META) ? catalog : replicas.applierOf(group);
  }

  /**
   * A new checkpoint of this member's replica of {@code group}, for a replica behind the log
   * (the server's internal replication call hands it over): its files as the log's last applied
   * entry left them.
   */
  @Override
  public CheckpointSession open(UUID group) throws IOException {
    check();
    Replica r = replicas.get(group);
    if (r == null) {
      throw new IOException("member " + self.id() + " holds no replica of group " + group);
    }
    return r.checkpoints.open(r.region(), () -> node.applied(group), r.applier::writeCheckpointState);
  }

  // ================================================================== background work

  /** What the member's replicas share: budgets, caches, the flush and compaction threads (its replicas' hosts ask it). */
  MemberWork work() {
    return work;
  }

  /** The regions of this member's replicas now (the memory budget chooses among them). */
  private List<Region> regionsNow() {
    return replicas.regionsNow();
  }

  /** After a region's flush: its group's log drops what the files hold, and a region grown past its size splits. */
  private void flushed(Region region) {
    checkpoint(region);
    splits.maybeSplit(region);
  }

  private void compacted(Region region) {
    splits.maybeSplit(region);
  }

  /** Checkpoints the group of the replica whose region was just flushed: its log drops what the files hold. */
  private void checkpoint(Region region) {
    for (Replica r : replicas.all()) {
      if (r.region() == region) {
        try {
          long index = node.checkpoint(r.group);
          LOG.debug("checkpointed group {} at index {}", r.group, index);
        } catch (RuntimeException e) {
          LOG.info("could not checkpoint group {} after a flush: {}", r.group, e.toString());
        }
      }
    }
  }

  // ================================================================== routing

  private MetaCatalog.TableEntry entry(String table) {
    check();
    MetaCatalog.TableEntry t = catalog.table(table);
    if (t == null) {
      throw new TableNotFoundException("table '" + table + "' does not exist");
    }
    return t;
  }

  /** The table of the reference, which must be enabled (as a standalone engine's data calls want it). */
  private MetaCatalog.TableEntry entry(TableRef table) {
    MetaCatalog.TableEntry t = entry(table.name());
    if (t.id() != table.id()) {
      throw new TableNotFoundException("table '" + table.name() + "' was dropped; the table of that name now is another");
    }
    return enabled(t);
  }

  private static MetaCatalog.TableEntry enabled(MetaCatalog.TableEntry t) {
    if (!t.enabled()) {
      throw new TableNotEnabledException("table '" + t.descriptor().name() + "' is disabled");
    }
    return t;
  }

  /** This member's replica of the table's region holding {@code row}. */
  private Replica replica(TableRef table, byte[] row) {
    MetaCatalog.TableEntry t = entry(table);
    return replica(t, t.ranges().indexOf(row));
  }

  /** This member's replica of the table's first region (its only one, for a table without split keys). */
  private Replica replica(TableRef table) {
    return replica(entry(table), 0);
  }

  /** Whether region {@code index} of the table has a replica on this member, or is to have one (its peers name it). */
  private boolean placedHere(MetaCatalog.TableEntry t, int index) {
    MetaCatalog.RegionEntry g = t.regions().get(index);
    return g.peers().contains(self.id()) || replicas.has(g.group());
  }

  /** This member's replica of region {@code index} of the table, bound to its group. */
  private Replica replica(MetaCatalog.TableEntry t, int index) {
    MetaCatalog.RegionEntry g = t.regions().get(index);
    Replica r = replicas.get(g.group());
    if (r == null) {
      r = servingParent(t, g.group());
    }
    if (r == null && !g.peers().contains(self.id())) {
      // Not placed here: the leader as the region's members know it (asked of them: a client that
      // knows where the region's leader is never comes here), else one of its members.
      String leader = started.join().members().leaderSeenBy(g.group(), replicas.peersOf(g));
      String ask = leader != null ? leader : g.peers().get(Math.floorMod(self.id().hashCode(), g.peers().size()));
      throw new RegionNotLeaderException("NOT_LEADER: member " + self.id() + " holds no replica of " + what(t, index)
          + "; its replicas are on " + g.peers() + (leader != null ? ", led by " : ", ask ") + ask,
          book.members().clientAddressOf(ask));
    }
    if (r == null) {
      throw new RegionNotLeaderException("member " + self.id() + " has not opened its replica of " + what(t, index)
          + " yet; retry", null);
    }
    if (r.applier.isSplit()) {
      // This member's catalog has not applied the split yet. Meta's split entry was committed before
      // the parent's log took the split, so a barrier on meta brings it: then the client's next look
      // at the table's regions, whichever member it asks, finds the daughters.
      if (catalog.splitOf(g.group()) == null) {
        catchUpMeta();
      }
      throw splitAnswer(what(t, index));
    }
    if (r.replicated == null) {
      // Meta's apply thread registers the replica before it adds the replica's group to the Raft
      // node (the group's state machine is found through the registration): between the two, a
      // call must be told to retry, not that its table's group is unknown.
      if (!started.join().holds(r.group)) {
        throw new RegionNotLeaderException("member " + self.id() + " has not joined the group of " + what(t, index)
            + " yet; retry", null);
      }
      replicas.bind(r); // once: the lock is not on the data path
    }
    return r;
  }

  /**
   * The replica that still serves the rows of a region this member has not opened: its split
   * parent's, while that has not applied the split. Meta routes rows to the daughters from its
   * split entry on, but the parent's log orders the split later (its leader appends the split entry
   * after meta's): until then the parent takes the daughters' rows, and a write it applies before
   * the split entry is in the daughters' files. Without this a call in between went round the
   * members until the daughters were made. Null if there is none (a parent this member has not
   * opened either is looked for up the splits).
   */
  private Replica servingParent(MetaCatalog.TableEntry t, UUID group) {
    for (MetaCatalog.Split s : catalog.splitsOf(t.id())) {
      if (s.a().group().equals(group) || s.b().group().equals(group)) {
        Replica parent = replicas.get(s.parent().group());
        if (parent == null) {
          return servingParent(t, s.parent().group());
        }
        return parent.applier.isSplit() ? null : parent;
      }
    }
    return null;
  }

  /** A region named for an error: the table's name, and the region's rows when the table has several. */
  static String what(MetaCatalog.TableEntry t, int index) {
    String table = "table '" + t.descriptor().name() + "'";
    if (t.regions().size() == 1) {
      return table;
    }
    MetaCatalog.RegionEntry g = t.regions().get(index);
    return "the region [" + Bytes.toStringBinary(g.start()) + ", " + Bytes.toStringBinary(g.end()) + ") of " + table;
  }

  private static String what(Replica r) {
    return "table '" + r.descriptor.name() + "'" + (r.region().startKey().length == 0 && r.region().endKey().length == 0
        ? "" : " (region [" + Bytes.toStringBinary(r.region().startKey()) + ", " + Bytes.toStringBinary(r.region().endKey())
        + "))");
  }

  private RegionNotLeaderException notLeader(String what, String leaderId) {
    String address = book.members().clientAddressOf(leaderId);
    return new RegionNotLeaderException("NOT_LEADER: member " + self.id() + " does not lead " + what
        + (address == null ? " and knows no leader yet; retry" : "; the leader is " + leaderId + " at " + address), address);
  }

  /**
   * The answer to a call whose rows span regions of which this member does not lead {@code r}'s: a
   * client that knows the table's regions sends each region's part to its leader, so its regions are
   * out of date (a split since it asked): the refusal says so, as a split's, and it asks again.
   */
  private RegionNotLeaderException spansRegions(Replica r) {
    return new RegionNotLeaderException("NOT_LEADER: " + io.bellows.engine.SplitRefusal.MARK + " the call's rows span"
        + " regions, and member " + self.id() + " does not lead " + what(r) + " (its leader: " + r.replicated.leader()
        + "); the table's regions changed since the client asked for them: nothing applied, retry", null);
  }

  /**
   * Waits until this member's meta has applied every entry committed before the call (a read-index
   * barrier, {@link ReplicatedLog#read}), at most {@link #ELECTION_HOLD_MS}: without a leader of
   * meta, the catalog as applied here is answered.
   */
  private void catchUpMeta() {
    try {
      meta.read(new byte[0]).get(ELECTION_HOLD_MS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
      // answered from the catalog as it is
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The answer to a call that reached a split parent: retry, the catalog routes it to a daughter. */
  private RegionNotLeaderException splitAnswer(String what) {
    return new RegionNotLeaderException("NOT_LEADER: " + io.bellows.engine.SplitRefusal.MARK + " " + what
        + " was split on member " + self.id() + "; its rows are in the daughter regions now: nothing applied, retry",
        null);
  }

  /**
   * Runs {@code op} on the replica, which must lead; a write evaluated in a term that ended goes
   * again. A replica that knows no leader (an election under way: a split's daughters, a new
   * table's regions, a leader lost) holds the call until one is elected, at most {@link
   * #ELECTION_HOLD_MS}: then it serves it, if it won, or names the winner, so the client goes
   * straight there rather than round the members pausing between them.
   */
  private <T> T onLeader(Replica r, Supplier<T> op) {
    for (int attempt = 0; ; attempt++) {
      if (!r.replicated.isLeader()) {
        String leader = r.replicated.leader();
        if (leader == null) {
          leader = awaitElection(r, null);
        }
        if (!self.id().equals(leader) || !r.replicated.isLeader()) {
          throw notLeader(what(r), leader);
        }
      }
      try {
        return op.get();
      } catch (NotLeaderException e) {
        // Without a leader named, this replica is handing its leadership over (a transfer refuses
        // writes until it is done): the answer names the member that takes it, once there is one.
        throw notLeader(what(r), e.leader() != null ? e.leader() : awaitElection(r, self.id()));
      } catch (RegionSplitException | RegionClosedException e) {
        if (!r.applier.isSplit() && !(e instanceof RegionSplitException)) {
          throw e;
        }
        throw splitAnswer(what(r)); // split while the call ran: nothing applied; its rows are in a daughter
      } catch (StaleLeadershipException e) {
        if (attempt >= 3) {
          throw e; // nothing applied; the caller may retry
        }
      }
    }
  }

  /** The leader other than {@code old} (null: any) the replica's group has within {@link #ELECTION_HOLD_MS}, or null. */
  private String awaitElection(Replica r, String old) {
    try {
      return node.awaitLeaderOtherThan(r.group, old, ELECTION_HOLD_MS);
    } catch (TimeoutException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  static <T> T join(CompletableFuture<T> f) {
    try {
      return f.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw new StorageException("a replicated call failed", e.getCause());
    }
  }

  private void check() {
    if (closed) {
      throw new EngineClosedException("the server's engine is closed");
    }
  }

  // ================================================================== Engine

  @Override
  public void createTable(TableDescriptor descriptor) {
    createTable(descriptor, List.of());
  }

  /**
   * Proposes the table to meta on its leader: without split keys in the entry of one region (the
   * first builds' format), else in one entry with every region, each its own Raft group over every
   * member, all from the same sequence base (each group's ids are its own log positions).
   */
  @Override
  public void createTable(TableDescriptor descriptor, List<byte[]> splitKeys) {
    check();
    proposals.createTable(descriptor, splitKeys);
  }

  /** The table's regions in key order, as meta records them, each with this member's replica's sizes (0 if it has none open). */
  @Override
  public List<RegionInfo> regions(String table) {
    catchUpMeta(); // a client routes by this answer: after a split, the daughters, not a lagging catalog's parent
    MetaCatalog.TableEntry t = entry(table);
    List<RegionInfo> out = new ArrayList<>(t.regions().size());
    for (MetaCatalog.RegionEntry g : t.regions()) {
      Replica r = replicas.get(g.group());
      long[] sizes = r == null ? new long[3] : sizes(r.region());
      out.add(new RegionInfo(g.id(), g.start(), g.end(), sizes[0], (int) sizes[1], sizes[2], g.group(), g.base()));
    }
    return out;
  }

  /** A region's bytes of sorted files, number of them, and bytes of data in its memory stores. */
  private static long[] sizes(Region region) {
    long[] out = new long[3];
    for (Store s : region.stores().values()) {
      for (StoreFile f : s.files()) {
        out[0] += f.size();
        out[1]++;
      }
      out[2] += s.memStoreSize().dataBytes();
    }
    return out;
  }

  /**
   * This member's view: every member of the member file (only this one reported) and this member's
   * replicas, meta's and then each table's, as its Raft node sees them now. A client of the
   * cluster puts every member's view together.
   */
  @Override
  public Optional<ClusterStatus> clusterStatus() {
    check();
    List<ClusterStatus.Member> list = book.members().list().stream()
        .map(m -> new ClusterStatus.Member(m.id(), m.clientAddress(), m.id().equals(self.id()))).toList();
    List<ClusterStatus.Replica> out = new ArrayList<>();
    out.add(new ClusterStatus.Replica(null, 0, self.id(), meta.role(), meta.leader(), meta.term(), meta.appliedIndex(),
        0, 0, 0));
    for (MetaCatalog.TableEntry t : catalog.tables()) {
      for (MetaCatalog.RegionEntry g : t.regions()) {
        Replica r = replicas.get(g.group());
        ReplicatedLog l = r == null ? null : r.replicated;
        if (l == null) {
          continue; // not opened or joined here yet
        }
        long[] sizes = sizes(r.region());
        out.add(new ClusterStatus.Replica(t.descriptor().name(), g.id(), self.id(), l.role(), l.leader(), l.term(),
            l.appliedIndex(), sizes[0], (int) sizes[1], sizes[2]));
      }
    }
    return Optional.of(new ClusterStatus(list, out));
  }

  @Override
  public TableDescriptor describeTable(String name) {
    return entry(name).descriptor();
  }

  @Override
  public List<String> listTables() {
    check();
    return catalog.tables().stream().map(t -> t.descriptor().name()).toList();
  }

  @Override
  public boolean tableExists(String name) {
    check();
    return catalog.table(name) != null;
  }

  /**
   * Proposes the table's disabling to meta on its leader: once every live member has applied it,
   * data calls on the table are refused everywhere ({@code TableNotEnabledException}); its replicas
   * stay open and are flushed. Refused with nothing appended if it is disabled already.
   */
  @Override
  public void disableTable(String name) {
    proposals.changeState(name, "disable", MetaCatalog::disableTable);
  }

  /** Proposes the table's enabling to meta on its leader; refused with nothing appended if it is enabled. */
  @Override
  public void enableTable(String name) {
    proposals.changeState(name, "enable", MetaCatalog::enableTable);
  }

  @Override
  public boolean isTableEnabled(String name) {
    return entry(name).enabled();
  }

  /**
   * Proposes the table's drop to meta on its leader; refused with nothing appended if it is enabled
   * (disable it first, as on one server). Every member, applying it, leaves the groups of its
   * replicas of the table's regions and deletes their logs and directories.
   */
  @Override
  public void dropTable(String name) {
    proposals.changeState(name, "drop", MetaCatalog::dropTable);
  }

  private static UnsupportedOperationException unsupported(String what) {
    return new UnsupportedOperationException(what + " is not supported in a cluster yet");
  }

  @Override
  public TableRef table(String name) {
    MetaCatalog.TableEntry t = entry(name);
    return new TableRef(name, t.id(), t.descriptor());
  }

  /** Flushes this member's replicas of the table's regions and checkpoints their groups. */
  @Override
  public void flush(String table) {
    MetaCatalog.TableEntry t = enabled(entry(table));
    for (int i = 0; i < t.regions().size(); i++) {
      if (!placedHere(t, i)) {
        continue;
      }
      Replica r = replica(t, i);
      r.region().flush(true);
      checkpoint(r.region());
    }
  }

  /**
   * Splits the table's region holding the most data (by this member's replicas) at its middle key,
   * on meta's leader: see {@link #split(String, byte[])}.
   */
  @Override
  public void split(String table) {
    check();
    MetaCatalog.TableEntry t = enabled(entry(table));
    byte[] key = null;
    long most = -1;
    for (MetaCatalog.RegionEntry g : t.regions()) {
      Replica r = replicas.get(g.group());
      if (r == null || r.applier.isSplit()) {
        continue;
      }
      long bytes = sizes(r.region())[0];
      byte[] mid = r.region().midKey();
      if (mid != null && bytes > most) {
        most = bytes;
        key = mid;
      }
    }
    if (key == null) {
      throw new IllegalArgumentException("table '" + table + "' has no split point: no region holds enough data in"
          + " its range (two data blocks in its largest file); give a split key");
    }
    split(table, key);
  }

  /**
   * Splits the table's region holding {@code splitKey} there, on meta's leader (another member
   * answers that it does not lead the catalog): meta records the split (the commit point), the
   * region's leader appends it to the region's log, every replica builds the two daughters from the
   * region's files, and this returns once both daughters have leaders (docs/design/cluster.md,
   * "Splitting a region"). Refused, with nothing changed, for a key that is empty or the start of a
   * region, and while a member holding the region is not answering.
   */
  @Override
  public void split(String table, byte[] splitKey) {
    check();
    if (splitKey == null || splitKey.length == 0) {
      throw new IllegalArgumentException("a split key must not be empty");
    }
    long start = System.nanoTime();
    MetaCatalog.Split s = proposals.split(enabled(entry(table)), splitKey);
    if (splits.awaitLeaders(s, NEW_GROUP_WAIT_MS)) {
      LOG.info("split of region {} of table '{}' at '{}': both daughters have leaders {} ms after it was asked",
          s.parent().id(), table, Bytes.toStringBinary(splitKey), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }
  }

  @Override
  public void compact(String table) {
    MetaCatalog.TableEntry t = enabled(entry(table));
    for (int i = 0; i < t.regions().size(); i++) {
      if (placedHere(t, i)) {
        replica(t, i).region().compact(false);
      }
    }
  }

  /**
   * Refused for now. Every replica compacts its own files, and a major compaction drops tombstones,
   * after which they no longer mask puts written later with older timestamps (ARCHITECTURE.md,
   * semantics 2): run on one replica, it made that replica answer such a put while the others still
   * masked it, so the replicas held different cells and a failover changed answers (found by
   * {@code ReplicatedEngineModelTest}). A major compaction that every replica runs at one position
   * of the log is left for later.
   */
  @Override
  public void majorCompact(String table) {
    entry(table);
    throw unsupported("a major compaction (each replica compacts on its own, and tombstones dropped on one"
        + " replica only would let the replicas answer differently)");
  }

  /**
   * Rows of several regions go to each region in turn (not atomically, as on one server), once this
   * member was seen to lead every one of them: else NOT_LEADER for the first it does not lead, before
   * any is written, saying the regions changed ({@link #spansRegions}: a client of the cluster sends
   * each region's rows to its leader).
   */
  @Override
  public void mutate(TableRef table, List<RowMutation> rows) {
    MetaCatalog.TableEntry t = entry(table);
    if (t.regions().size() == 1 || rows.size() <= 1) {
      mutate(rows.isEmpty() ? replica(t, 0) : replica(t, t.ranges().indexOf(rows.get(0).row())), rows);
      return;
    }
    RowRanges ranges = t.ranges();
    Map<Integer, List<RowMutation>> byRegion = new java.util.TreeMap<>();
    for (RowMutation m : rows) {
      byRegion.computeIfAbsent(ranges.indexOf(m.row()), i -> new ArrayList<>()).add(m);
    }
    List<Replica> led = new ArrayList<>();
    for (int i : byRegion.keySet()) {
      Replica r = replica(t, i);
      if (!r.replicated.isLeader()) {
        throw spansRegions(r);
      }
      led.add(r);
    }
    int k = 0;
    for (List<RowMutation> part : byRegion.values()) {
      mutate(led.get(k++), part);
    }
  }

  private void mutate(Replica r, List<RowMutation> rows) {
    onLeader(r, () -> {
      if (rows.size() == 1) {
        RowMutation m = rows.get(0);
        r.region().mutate(m.row(), m.cells(), m.wholeRowDeleteTs(), m.durability());
      } else {
        List<Region.RowWrite> writes = new ArrayList<>(rows.size());
        for (RowMutation m : rows) {
          writes.add(new Region.RowWrite(m.row(), m.cells(), m.wholeRowDeleteTs(), m.durability()));
        }
        r.region().mutateBatch(writes);
      }
      return null;
    });
  }

  @Override
  public Outcome mutateRow(TableRef table, RowOperation op) {
    RowMutation m = op.mutation();
    Replica r = replica(table, m.row());
    return onLeader(r, () -> r.region().mutateRow(m.row(), op.condition(), m.cells(), m.wholeRowDeleteTs(), op.updates(),
        m.durability(), op.returnValues()));
  }

  /**
   * Writes named by a client's call id are applied at most once: the region's state machine
   * remembers the answers of each client's latest calls ({@link RaftRegionLog#answerOnce}).
   */
  @Override
  public boolean deduplicatesCalls() {
    return true;
  }

  /** A one-row call is applied at most once; a batch of rows (several records) is applied as without an id. */
  @Override
  public void mutate(TableRef table, List<RowMutation> rows, CallId call) {
    if (rows.size() != 1) {
      mutate(table, rows);
      return;
    }
    RowMutation m = rows.get(0);
    Replica r = replica(table, m.row());
    onLeader(r, () -> r.log.answerOnce(call, 0, () -> {
      r.region().mutate(m.row(), m.cells(), m.wholeRowDeleteTs(), m.durability());
      return null;
    }));
  }

  /** Applied at most once; a retry of a call that applied answers the first answer. */
  @Override
  public Outcome mutateRow(TableRef table, RowOperation op, CallId call) {
    RowMutation m = op.mutation();
    Replica r = replica(table, m.row());
    // The updates' new values are the record's last cells (AtomicRowWrite writes them after the mutation's).
    int answerCells = op.returnValues() ? op.updates().size() : 0;
    return onLeader(r, () -> r.log.answerOnce(call, answerCells, () -> r.region().mutateRow(m.row(), op.condition(),
        m.cells(), m.wholeRowDeleteTs(), op.updates(), m.durability(), op.returnValues())));
  }

  /**
   * Gets of rows in several regions are answered only by a member leading every one of them (a
   * TIMELINE get by any): else NOT_LEADER saying the regions changed ({@link #spansRegions}). A
   * client sends each region's gets to its leader, so its regions are out of date; a plain
   * NOT_LEADER per region would send it from one region's leader to the other's for good, as
   * neither answers the whole call.
   */
  @Override
  public List<List<io.bellows.cell.Cell>> getAll(TableRef table, List<ScanQuery> singleRowQueries) {
    MetaCatalog.TableEntry t = entry(table);
    if (t.regions().size() > 1 && singleRowQueries.size() > 1) {
      RowRanges ranges = t.ranges();
      java.util.SortedSet<Integer> regions = new java.util.TreeSet<>();
      for (ScanQuery q : singleRowQueries) {
        if (q.consistency() != Consistency.TIMELINE && q.isSingleRow()) {
          regions.add(ranges.indexOf(q.startRow()));
        }
      }
      if (regions.size() > 1) {
        for (int i : regions) {
          Replica r = replica(t, i);
          if (!r.replicated.isLeader()) {
            throw spansRegions(r);
          }
        }
      }
    }
    return Engine.super.getAll(table, singleRowQueries);
  }

  /**
   * A linearizable read: the leader confirms its leadership (read index or lease) and has applied
   * everything committed before the read began; then it reads its own region. A scan over several
   * regions reads them in turn (each at its own read point, as on one server) once this member was
   * seen to lead every one: else NOT_LEADER for the first it does not lead (a client of the cluster
   * sends each region's part of a scan to its leader). A TIMELINE scan reads this member's
   * replicas of them all.
   */
  @Override
  public RowScanner scan(TableRef table, ScanQuery query) {
    if (testFaults != null && testFaults.staleReads()) {
      return scanStale(table, query); // TEST ONLY: what a checker of histories must catch
    }
    MetaCatalog.TableEntry t = entry(table);
    RowRanges ranges = t.ranges();
    List<Integer> wanted = ranges.wanted(query);
    List<Replica> parts = new ArrayList<>(wanted.size());
    for (int i : wanted) {
      parts.add(replica(t, i));
    }
    if (query.consistency() == Consistency.TIMELINE) {
      return chain(parts, wanted, ranges, query, this::scanTimeline);
    }
    if (parts.size() > 1) {
      for (Replica r : parts) {
        if (!r.replicated.isLeader()) {
          throw spansRegions(r);
        }
      }
    }
    return chain(parts, wanted, ranges, query, (r, q) -> onLeader(r, () -> {
      confirmLeadership(r);
      return r.region().scanner(q);
    }));
  }

  /**
   * The read barrier of a linearizable read: Ratis' read index (or lease). One that fails because
   * the replica could not confirm it leads (it stepped down as the read began: Ratis' "leader is
   * unknown") read nothing, and is answered NOT_LEADER, so the client asks the others, rather than
   * failing the read.
   */
  private void confirmLeadership(Replica r) {
    try {
      join(r.replicated.read(new byte[0]));
    } catch (StorageException e) {
      for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
        if (c instanceof org.apache.ratis.protocol.exceptions.ReadIndexException) {
          throw notLeader(what(r), r.replicated.leader());
        }
      }
      throw e;
    }
  }

  /** The query's rows from {@code parts} (the replicas of regions {@code wanted}, in scan order), each part read by {@code read}. */
  private static RowScanner chain(List<Replica> parts, List<Integer> wanted, RowRanges ranges, ScanQuery query,
      java.util.function.BiFunction<Replica, ScanQuery, RowScanner> read) {
    if (parts.size() == 1) {
      return read.apply(parts.get(0), query);
    }
    return new ChainedScanner((k, left) -> {
      if (k >= parts.size()) {
        return null;
      }
      ScanQuery q = ranges.within(query, wanted.get(k));
      if (q == null) {
        q = query; // an empty range: the region answers it, with nothing
      }
      return read.apply(parts.get(k), left == query.limit() ? q : q.toBuilder().limit(left).build());
    }, query.limit());
  }

  /**
   * A TIMELINE read (HBase's): on the replica that leads, the linearizable read, which is not stale
   * (HBase's primary answers so); on any other replica, or on a leader whose confirmation fails (it
   * stepped down, or could not reach its majority in time), a read of this replica's own state,
   * flagged {@link RowScanner#mayBeStale}. A follower asks no other member anything.
   */
  private RowScanner scanTimeline(Replica r, ScanQuery query) {
    if (r.replicated.isLeader()) {
      try {
        join(r.replicated.read(new byte[0]));
        return r.region().scanner(query);
      } catch (EngineClosedException e) {
        throw e;
      } catch (StorageException e) {
        // not confirmed as the leader: its own state, as a follower's
      }
    }
    return stale(r.region().scanner(query));
  }

  /** A read of this member's replicas as they are, possibly behind the leaders (HBase's TIMELINE reads). */
  public RowScanner scanStale(TableRef table, ScanQuery query) {
    MetaCatalog.TableEntry t = entry(table);
    RowRanges ranges = t.ranges();
    List<Integer> wanted = ranges.wanted(query);
    List<Replica> parts = new ArrayList<>(wanted.size());
    for (int i : wanted) {
      parts.add(replica(t, i));
    }
    return chain(parts, wanted, ranges, query, (r, q) -> stale(r.region().scanner(q)));
  }

  private static RowScanner stale(RowScanner s) {
    return new RowScanner() {
      @Override
      public boolean nextRow(List<io.bellows.cell.Cell> out) {
        return s.nextRow(out);
      }

      @Override
      public boolean mayBeStale() {
        return true;
      }

      @Override
      public void close() {
        s.close();
      }
    };
  }

  @Override
  public Optional<BackgroundError> backgroundError() {
    return Optional.empty();
  }

  @Override
  public void resume() {}

  @Override
  public Map<String, Number> metrics() {
    check();
    return work.metricSet().snapshot();
  }

  @Override
  public Map<String, Map<String, Number>> storeMetrics(String table) {
    Replica r = replica(table(table));
    Map<String, Map<String, Number>> out = new LinkedHashMap<>();
    for (Store s : r.region().stores().values()) {
      out.put(s.family().name(), s.metrics());
    }
    return out;
  }

  @Override
  public EngineOptions options() {
    return options;
  }

  /**
   * Flushes every replica and checkpoints its group, stops the node (its replicas stop voting) and
   * closes the regions. The logs stay on disk: a restart replays what lies after each checkpoint.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    for (Replica r : replicas.all()) {
      if (r.region().isClosedForWork()) {
        continue; // a split parent
      }
      try {
        if (r.region().flush(true) != Region.NOTHING_FLUSHED) {
          checkpoint(r.region());
        }
      } catch (RuntimeException e) {
        LOG.warn("flush of table '{}' at close failed: {}", r.descriptor.name(), e.toString());
      }
    }
    closed = true;
    moves.close();
    node.close();
    balancer.shutdownNow();
    splits.close();
    work.close();
    for (Replica r : replicas.all()) {
      if (!r.region().isClosedForWork()) {
        r.region().close(false);
      }
    }
    if (testFaults != null) {
      testFaults.close();
    }
  }
}
