package io.bellows.cluster.server;

import io.bellows.cluster.LogApplier;
import io.bellows.cluster.LogPosition;
import io.bellows.cluster.RaftNode;
import io.bellows.cluster.ReplicatedLog;
import io.bellows.cluster.checkpoint.CheckpointInstaller;
import io.bellows.cluster.checkpoint.CheckpointSource;
import io.bellows.cluster.checkpoint.LeaderCheckpoints;
import io.bellows.cluster.region.RaftRegionLog;
import io.bellows.cluster.region.RegionApplier;
import io.bellows.config.EngineOptions;
import io.bellows.fs.LocalFileSystem;
import io.bellows.region.Region;
import io.bellows.region.SequenceIds;
import io.bellows.schema.TableDescriptor;
import io.bellows.store.FileNumberAllocator;
import io.bellows.store.Store;
import io.bellows.store.StoreFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This member's replicas of the tables' regions, and each replica's life: opened from its
 * directory ({@code regions/GROUP/}; at a start, when Ratis finds the group's log), created when
 * meta names this member among a region's peers, seeded from a checkpoint when a replica moves
 * here, bound to its group once the Raft node holds it, and removed (a dropped table, a retired
 * split parent, a replica moved away: recorded in {@code regions/dropped} first, so a restart
 * never opens it again). Meta's applier hands it the tables' events ({@link #opened}, {@link
 * #disabled}, {@link #dropped}); the split and move work the daughters and moved replicas ({@link
 * #openAndJoin}, {@link #seedAndJoin}, {@link #recordRemoved}, {@link #remove}).
 *
 * <p>Every step is idempotent, as meta's log is replayed whole at a restart and a member may die
 * between any two steps: each one finishes what it finds undone and skips what is done.
 */
final class Replicas {
  private static final Logger LOG = LoggerFactory.getLogger(Replicas.class);

  /** What a replica's split is handed to ({@link ReplicaSplits}). */
  interface Splits {
    /** A replica reopened at a start: a split parent stays closed, its writes answered as moved. */
    void reopened(Replica r);

    /** A replica's log applied a split entry ({@code text}) at {@code at}. */
    void split(Replica r, String text, LogPosition at);
  }

  /** The applier of a dropped replica's group that Ratis found at a start, until the group is removed: applies nothing. */
  private static final LogApplier DROPPED = new LogApplier() {
    @Override
    public byte[] apply(LogPosition at, byte[] entry) {
      return new byte[0];
    }

    @Override
    public byte[] query(byte[] request) {
      return new byte[0];
    }
  };

  private final String selfId;
  private final ReplicaDirectories directories;
  private final EngineOptions options;
  private final MemberWork work;
  private final MetaCatalog catalog;
  /** Every member's Raft peer: a region's peers are those its entry names. */
  private final MemberBook book;
  private final CompletableFuture<RaftNode> started;
  /** Where a replica behind its leader's log, or one moving here, fetches a checkpoint. */
  private final CheckpointSource checkpointSource;
  private final Splits splits;
  private final Map<UUID, Replica> replicas = new ConcurrentHashMap<>();
  /**
   * The groups of this member's removed replicas ({@code regions/dropped}): never opened or joined
   * again, though Ratis may find such a group's log at a start and meta's replay creates the table
   * again before it drops it. Written under its own lock: a drop, a retire and a move may record
   * groups at once on different threads.
   */
  private final Set<UUID> dropped = ConcurrentHashMap.newKeySet();
  /** Held while a split's daughter is opened and joined, so two threads never open it twice. */
  private final Object joining = new Object();
  /**
   * The sorted-file numbers of every replica of this member: one allocator, because the replicas
   * share one block cache (and KV cache) keyed by file number and offset, so two replicas' files must
   * never share a number. Starts above every number under {@code regions/} (read before any replica
   * opens, as groups open in any order and may flush at once); each replica's open raises it again.
   */
  private final AtomicLong fileNumbers = new AtomicLong(1);

  Replicas(String selfId, ReplicaDirectories directories, EngineOptions options, MemberWork work, MetaCatalog catalog,
      MemberBook book, CompletableFuture<RaftNode> started, CheckpointSource checkpointSource,
      Splits splits) {
    this.selfId = selfId;
    this.directories = directories;
    this.options = options;
    this.work = work;
    this.catalog = catalog;
    this.book = book;
    this.started = started;
    this.checkpointSource = checkpointSource;
    this.splits = splits;
    this.dropped.addAll(directories.dropped());
    this.fileNumbers.set(directories.highestFileNumber() + 1);
  }

  /** This member's replica of {@code group}, or null. */
  Replica get(UUID group) {
    return replicas.get(group);
  }

  /** Whether this member has a replica of {@code group} open. */
  boolean has(UUID group) {
    return replicas.containsKey(group);
  }

  /** Whether this member has a replica of {@code group} open and its node holds the group. */
  boolean holds(UUID group) {
    return replicas.containsKey(group) && started.join().holds(group);
  }

  /** Every replica open now (a live view). */
  Collection<Replica> all() {
    return replicas.values();
  }

  /** Whether this member's replica of {@code group} was removed (recorded in {@code regions/dropped}). */
  boolean isDropped(UUID group) {
    return dropped.contains(group);
  }

  /** The regions of this member's replicas now, but split parents' (closed). */
  List<Region> regionsNow() {
    List<Region> regions = new ArrayList<>(replicas.size());
    for (Replica r : replicas.values()) {
      if (!r.applier.isSplit()) {
        regions.add(r.region());
      }
    }
    return regions;
  }

  /** The applier of a region's group the node holds: a replica opened from its own files, or one that applies nothing (removed). */
  LogApplier applierOf(UUID group) {
    if (dropped.contains(group)) {
      return DROPPED; // removed once the node has started; never served
    }
    return replicas.computeIfAbsent(group, this::reopen).applier;
  }

  /** Removes the replicas recorded as removed whose removal a crash cut short (Ratis found their groups' logs again). */
  void finishRemovals() {
    for (UUID g : new ArrayList<>(dropped)) {
      remove(g);
    }
  }

  private Replica reopen(UUID group) {
    ReplicaDirectories.Recorded r = directories.read(group);
    Replica replica = open(group, r.tableId(), r.regionId(), r.descriptor(), r.base(), r.start(), r.end(), false);
    splits.reopened(replica);
    return replica;
  }

  private Replica open(UUID group, int tableId, int regionId, TableDescriptor d, long base, byte[] start, byte[] end,
      boolean create) {
    Path dir = directories.of(group);
    Path regionDir = dir.resolve(ReplicaFiles.REGION);
    SequenceIds ids = SequenceIds.assignedByLog(base);
    RaftRegionLog log = new RaftRegionLog(); // bound to the group once the node holds it
    ReplicaHost host = new ReplicaHost(options, work, log, ids, fileNumbers);
    CheckpointInstaller.recover(LocalFileSystem.INSTANCE, regionDir); // an install that committed is finished first
    CheckpointInstaller.Reopen reopen = at -> {
      Region r = new Region(regionId, d, at, host, start, end);
      log.region(r); // the leader's clock reads the region it stamps above (a new one after an install)
      for (Store s : r.stores().values()) {
        for (StoreFile f : s.files()) {
          fileNumbers.accumulateAndGet(f.id() + 1, Math::max); // a flush never reuses a file's number
        }
      }
      return r;
    };
    if (create) {
      directories.createStores(group, d);
    }
    Region region = reopen.open(regionDir);
    log.region(region);
    CheckpointInstaller installer = new CheckpointInstaller(LocalFileSystem.INSTANCE, regionDir, group,
        checkpointSource, reopen, FileNumberAllocator.over(fileNumbers));
    LeaderCheckpoints checkpoints = new LeaderCheckpoints(LocalFileSystem.INSTANCE, dir.resolve(ReplicaFiles.CHECKPOINTS), group);
    checkpoints.deleteLeftovers();
    Replica replica = new Replica(group, tableId, regionId, d, base, log,
        RegionApplier.open(region, ids, base, log, dir, installer), checkpoints);
    replica.applier.commands((text, at) -> splits.split(replica, text, at));
    return replica;
  }

  /**
   * Opens this member's replica of a split's daughter {@code d} from the directory the split made
   * (unless it is open: Ratis may have reopened it at the start) and joins its group (unless
   * joined); its compaction is asked for, which rewrites the parent's files to the daughter's rows.
   */
  void openAndJoin(MetaCatalog.RegionEntry d) {
    RaftNode n = started.join(); // a restart's replay may apply before the node is handed over
    Replica r;
    synchronized (joining) {
      boolean wasOpen = replicas.containsKey(d.group());
      r = replicas.computeIfAbsent(d.group(), this::reopen);
      if (!n.holds(d.group())) {
        n.addGroup(d.group(), peersOf(d));
      }
      if (!wasOpen) {
        work.requestCompaction(r.region());
      }
    }
    bind(r);
  }

  /**
   * Opens this member's replica of region {@code r} of table {@code t}, which moves here, seeds it
   * with a checkpoint of the first member of {@code sources} that hands one (the log starts after
   * it: {@link RegionApplier#seed}), and adds the region's group knowing {@code groupMembers} as its
   * members (the leader's membership change tells it the new ones). A replica this member removed
   * before (moved away, now moved back) is taken off the removed list first.
   */
  void seedAndJoin(MetaCatalog.TableEntry t, MetaCatalog.RegionEntry r, List<String> sources,
      List<String> groupMembers) {
    RaftNode n = started.join();
    UUID group = r.group();
    synchronized (dropped) {
      if (dropped.contains(group)) {
        Set<UUID> next = new LinkedHashSet<>(dropped);
        next.remove(group);
        directories.recordDropped(next);
        dropped.remove(group);
      }
    }
    Replica replica = replicas.get(group);
    if (replica == null) {
      directories.record(t.id(), r, t.descriptor());
      boolean exists = Files.isDirectory(directories.of(group).resolve(ReplicaFiles.REGION));
      replica = open(group, t.id(), r.id(), t.descriptor(), r.base(), r.start(), r.end(), !exists);
    }
    RuntimeException failed = null;
    boolean seeded = false;
    for (String source : sources) {
      try {
        replica.applier.seed(source);
        seeded = true;
        break;
      } catch (RuntimeException e) {
        failed = e;
        LOG.info("member {}: no checkpoint of group {} from {} ({}); asking the next member", selfId, group, source,
            e.toString());
      }
    }
    if (!seeded) {
      throw new IllegalStateException("no member handed a checkpoint of group " + group + " (asked " + sources + ")",
          failed);
    }
    replicas.put(group, replica); // before the group is added: its state machine finds the applier here
    if (!n.holds(group)) {
      n.addGroup(group, book.peers(groupMembers));
    }
    bind(replica);
  }

  /**
   * Records this member's replica of {@code group} (a retired split parent, a replica moved away)
   * as removed, as a dropped table's, so a restart never opens it.
   */
  void recordRemoved(UUID group) {
    recordRemoved(List.of(group));
  }

  private void recordRemoved(List<UUID> groups) {
    synchronized (dropped) {
      if (!dropped.containsAll(groups)) {
        Set<UUID> next = new LinkedHashSet<>(dropped);
        next.addAll(groups);
        directories.recordDropped(next);
        dropped.addAll(groups);
      }
    }
  }

  /**
   * Meta applied a table: this member opens its replicas of the table's regions it is a peer of,
   * all of them first, then joins their groups. Applied again at every restart (meta replays its
   * whole log) and idempotent, so a member that died halfway through finishes here what it lacks
   * (a region's {@code region.txt} and stores, or its group) and ends with every region of the
   * table; no region is created before the entry is committed, so a table whose entry never was
   * has none (docs/design/cluster.md, "Several regions").
   */
  void opened(MetaCatalog.TableEntry t) {
    RaftNode n = started.join(); // a restart's replay may apply before the node is handed over
    List<MetaCatalog.RegionEntry> mine = t.regions().stream()
        .filter(g -> g.peers().contains(selfId) && !dropped.contains(g.group())).toList(); // a replay before the drop
    for (MetaCatalog.RegionEntry g : mine) {
      if (replicas.get(g.group()) != null) {
        continue;
      }
      directories.record(t.id(), g, t.descriptor());
      boolean exists = Files.isDirectory(directories.of(g.group()).resolve(ReplicaFiles.REGION));
      replicas.put(g.group(), open(g.group(), t.id(), g.id(), t.descriptor(), g.base(), g.start(), g.end(), !exists));
    }
    for (MetaCatalog.RegionEntry g : mine) {
      if (!n.holds(g.group())) {
        n.addGroup(g.group(), peersOf(g));
      }
      bind(replicas.get(g.group()));
    }
    LOG.info("member {} opened its replicas of table '{}' ({} of its {} regions)", selfId, t.descriptor().name(),
        mine.size(), t.regions().size());
  }

  /**
   * Meta disabled a table: this member's replicas of its regions stay open and in their groups
   * (data calls are refused by the catalog's state), their memory stores flushed in the background,
   * so enabling it again costs nothing but an entry.
   */
  void disabled(MetaCatalog.TableEntry t) {
    for (MetaCatalog.RegionEntry g : t.regions()) {
      Replica r = replicas.get(g.group());
      if (r != null) {
        work.requestFlushAll(r.region());
      }
    }
  }

  /**
   * Meta dropped a table (the catalog no longer names it, so no call reaches its replicas): this
   * member records its replicas of the table's regions as dropped, the one step that decides, then
   * for each leaves the region's group (deleting its Raft log), closes the region and deletes its
   * directory. Idempotent: a member that dies anywhere in this finishes it at its restart (the
   * groups recorded dropped are removed at start; meta's replay applies the drop again, and its
   * creation before it opens nothing recorded dropped).
   */
  void dropped(MetaCatalog.TableEntry t) {
    started.join(); // a restart's replay may apply before the node is handed over
    List<UUID> mine = new ArrayList<>(t.regions().stream().filter(g -> g.peers().contains(selfId))
        .map(MetaCatalog.RegionEntry::group).toList());
    for (MetaCatalog.Split s : catalog.splitsOf(t.id())) {
      if (s.parent().peers().contains(selfId)) {
        mine.add(s.parent().group()); // a split parent not retired yet
      }
    }
    for (MetaCatalog.ReplicaMove m : catalog.moves()) {
      if (m.tableId() == t.id() && m.from().equals(selfId) && !mine.contains(m.group())) {
        mine.add(m.group()); // a replica moving away, not removed yet
      }
    }
    recordRemoved(mine);
    for (UUID g : mine) {
      remove(g);
    }
    LOG.info("member {} removed its replicas of dropped table '{}' ({} of its {} regions)", selfId,
        t.descriptor().name(), mine.size(), t.regions().size());
  }

  /**
   * Removes this member's replica of {@code group}, recorded as removed: leaves the group (Ratis
   * stops applying to the replica, and its log is deleted), then closes the region and deletes
   * {@code regions/GROUP/}. Each step is skipped when already done.
   */
  void remove(UUID group) {
    started.join().removeGroup(group);
    Replica r = replicas.remove(group);
    if (r != null) {
      Region region = r.region();
      if (!region.isClosedForWork()) {
        region.close(false); // a split parent's was closed by its split
      }
      work.logEntries().forget(region);
    }
    directories.delete(group);
  }

  /** A region's peers as the Raft node names them. */
  List<RaftNode.Peer> peersOf(MetaCatalog.RegionEntry g) {
    return book.peers(g.peers());
  }

  /** Binds replica {@code r}'s region log to its group's replicated log, once the node holds the group. */
  synchronized void bind(Replica r) {
    if (r.replicated == null) {
      ReplicatedLog l = started.join().log(r.group);
      r.log.bind(l);
      r.replicated = l;
    }
  }
}
