package io.bellows.cluster.region;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.cluster.LogApplier;
import io.bellows.cluster.LogPosition;
import io.bellows.cluster.NotLeaderException;
import io.bellows.cluster.RaftNode;
import io.bellows.cluster.RaftSettings;
import io.bellows.cluster.checkpoint.CheckpointInstaller;
import io.bellows.cluster.checkpoint.LeaderCheckpoints;
import io.bellows.cluster.checkpoint.LocalCheckpointSource;
import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.region.Region;
import io.bellows.region.RegionClosedException;
import io.bellows.region.RegionScanner;
import io.bellows.region.SequenceIds;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.store.FileNumberAllocator;
import io.bellows.store.Store;
import io.bellows.store.StoreFile;
import io.bellows.testing.FreePorts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Three replicas of one region in one JVM, each a Raft node on 127.0.0.1 with the region's stores
 * in a directory of its own: started, stopped (as a crash: what the memory stores held is lost) and
 * restarted on the same directories; writes go to whichever replica leads. A replica behind its
 * leader's log installs a checkpoint of the leader's files through a {@link LocalCheckpointSource}.
 * A replica's region may be on a file system of its own (a {@code MemFileSystem} that can lose
 * power), its Raft log staying on the local disk.
 */
final class RegionCluster implements AutoCloseable {
  static final long WAIT_MS = 30_000;
  static final UUID GROUP = UUID.fromString("00000000-0000-0000-0000-0000000000b1");
  static final int REGION_ID = 7;
  /** The region's sequence base: its ids are {@code BASE + index}. */
  static final long BASE = 1_000_000;
  static final List<String> IDS = List.of("n1", "n2", "n3");

  private final Path dir;
  private final TableDescriptor table;
  private final Map<String, Integer> ports = new LinkedHashMap<>();
  private final Map<String, AtomicLong> fileNumbers = new ConcurrentHashMap<>();
  private final Map<String, Replica> live = new ConcurrentHashMap<>();
  /** Per node, how far its clock lies from the system's (ms; negative: behind). */
  private final Map<String, AtomicLong> skews = new ConcurrentHashMap<>();
  private final LocalCheckpointSource checkpoints = new LocalCheckpointSource();
  private final UnaryOperator<RaftSettings> tuning;
  /** The file system of each replica's region files (and checkpoints); the local disk if none. */
  private final Map<String, FileSystem> fileSystems = new ConcurrentHashMap<>();

  /**
   * One node's replica: its Raft node, log, applier (watched: a test can wait for an index) and
   * installer of checkpoints; its region is the applier's (a new one after an install).
   */
  record Replica(String id, RaftNode node, RaftRegionLog log, Watched applier, CheckpointInstaller installer) {
    Region region() {
      return applier.applier.region();
    }
  }

  /** The region's applier, and what it was handed since the replica started; waits without sleeping. */
  static final class Watched implements LogApplier {
    final RegionApplier applier;
    private long last = -1;
    private long first = -1;
    private long handed;
    /** Entries from this index on wait before they are applied ({@link #holdFrom}). */
    private long holdFrom = Long.MAX_VALUE;
    private LogPosition installed;

    Watched(RegionApplier applier) {
      this.applier = applier;
    }

    /** Holds back the apply of the entries from {@code index} on until {@link #release}: a writer here waits meanwhile. */
    synchronized void holdFrom(long index) {
      holdFrom = index;
    }

    synchronized void release() {
      holdFrom = Long.MAX_VALUE;
      notifyAll();
    }

    @Override
    public byte[] apply(LogPosition at, byte[] entry) {
      synchronized (this) {
        while (at.index() >= holdFrom) {
          try {
            wait();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the apply of " + at + " was held back", e);
          }
        }
      }
      byte[] reply = applier.apply(at, entry);
      synchronized (this) {
        if (first < 0) {
          first = at.index();
        }
        last = at.index();
        handed++;
        notifyAll();
      }
      return reply;
    }

    @Override
    public LogPosition durablePosition() {
      return applier.durablePosition();
    }

    @Override
    public void checkpointing(LogPosition at) {
      applier.checkpointing(at);
    }

    @Override
    public LogPosition installCheckpoint(String leader) {
      LogPosition at = applier.installCheckpoint(leader);
      synchronized (this) {
        installed = at;
        first = -1; // the log goes on after the checkpoint: what was handed before says nothing now
        notifyAll();
      }
      return at;
    }

    /** The position of the last checkpoint installed since the replica started, or null. */
    synchronized LogPosition installed() {
      return installed;
    }

    /** The first index handed since the replica started or last installed a checkpoint, or -1. */
    synchronized long first() {
      return first;
    }

    /** How many entries were handed since the replica started. */
    synchronized long handed() {
      return handed;
    }

    synchronized long last() {
      return last;
    }

    /** Waits until {@code count} entries were handed since the replica started. */
    synchronized void awaitHanded(long count) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
      while (handed < count) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        assertThat(left).as("handed %d entries, waiting for %d", handed, count).isPositive();
        wait(left);
      }
    }

    synchronized void awaitIndex(long index) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
      while (last < index && (installed == null || installed.index() < index)) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        assertThat(left).as("applied up to %d, waiting for %d", last, index).isPositive();
        wait(left);
      }
    }
  }

  RegionCluster(Path dir, TableDescriptor table) throws IOException {
    this(dir, table, null);
  }

  /** With every node's Raft settings changed by {@code tuning} (null: the defaults), e.g. its log's retention. */
  RegionCluster(Path dir, TableDescriptor table, UnaryOperator<RaftSettings> tuning) throws IOException {
    this(dir, table, tuning, Map.of());
  }

  /** As above, the regions of the replicas {@code fileSystems} names on those file systems. */
  RegionCluster(Path dir, TableDescriptor table, UnaryOperator<RaftSettings> tuning, Map<String, FileSystem> fileSystems)
      throws IOException {
    this.fileSystems.putAll(fileSystems);
    this.dir = dir;
    this.table = table;
    this.tuning = tuning;
    for (String id : IDS) {
      ports.put(id, FreePorts.next());
      fileNumbers.put(id, new AtomicLong(1));
      skews.put(id, new AtomicLong());
    }
    List<RaftNode.Peer> peers = ports.entrySet().stream()
        .map(e -> new RaftNode.Peer(e.getKey(), "127.0.0.1:" + e.getValue())).toList();
    for (String id : IDS) {
      Replica r = open(id);
      r.log().bind(r.node().addGroup(GROUP, peers));
    }
  }

  /**
   * Opens the replica's region on its directory (created the first time; an install that committed
   * finished first) and starts its node; it serves checkpoints of its replica to the others.
   */
  private Replica open(String id) {
    RaftRegionLog log = new RaftRegionLog();
    SequenceIds ids = SequenceIds.assignedByLog(BASE);
    AtomicLong numbers = fileNumbers.get(id);
    AtomicLong skew = skews.get(id);
    FileSystem fs = fileSystems.getOrDefault(id, LocalFileSystem.INSTANCE);
    ReplicaServices services = new ReplicaServices(log, ids, numbers,
        log.clock(() -> System.currentTimeMillis() + skew.get()), fs); // as the server wires it
    Path regionDir = dir.resolve(id).resolve("region");
    CheckpointInstaller.recover(fs, regionDir);
    Function<Path, Region> reopen = d -> {
      Region r = new Region(REGION_ID, table, d, services);
      log.region(r);
      for (Store s : r.stores().values()) {
        for (StoreFile f : s.files()) {
          numbers.accumulateAndGet(f.id() + 1, Math::max); // a flush must not reuse an installed file's number
        }
      }
      return r;
    };
    Region region = fs.exists(regionDir) ? reopen.apply(regionDir) : Region.create(REGION_ID, table, regionDir, services);
    log.region(region);
    CheckpointInstaller installer = new CheckpointInstaller(fs, regionDir, GROUP, checkpoints,
        reopen::apply, FileNumberAllocator.over(numbers));
    Watched applier = new Watched(RegionApplier.open(region, ids, BASE, log, dir.resolve(id), installer));
    RaftSettings settings = RaftSettings.of("127.0.0.1", ports.get(id), dir.resolve(id).resolve("raft"));
    if (tuning != null) {
      settings = tuning.apply(settings);
    }
    RaftNode node = RaftNode.start(id, settings, g -> applier);
    LeaderCheckpoints served = new LeaderCheckpoints(fs, dir.resolve(id).resolve("checkpoints"), GROUP);
    served.deleteLeftovers();
    checkpoints.register(id, g -> served.open(applier.applier.region(), () -> node.applied(GROUP),
        applier.applier::writeCheckpointState));
    Replica r = new Replica(id, node, log, applier, installer);
    live.put(id, r);
    return r;
  }

  /** Restarts a stopped replica on its directories: the node finds its group again. */
  Replica restart(String id) {
    assertThat(live).doesNotContainKey(id);
    Replica r = open(id);
    r.log().bind(r.node().log(GROUP));
    return r;
  }

  /** Restarts a stopped replica with its region's files on {@code fs} (what a power loss left of them). */
  Replica restart(String id, FileSystem fs) {
    fileSystems.put(id, fs);
    return restart(id);
  }

  /** Stops a replica as a crash would: its node stops, its region closes without flushing. */
  void stop(String id) {
    Replica r = live.remove(id);
    checkpoints.unregister(id);
    r.node().close();
    r.region().close(false);
  }

  /** Sets how far node {@code id}'s clock lies from the system's, in ms (negative: behind). */
  void skewClock(String id, long millis) {
    skews.get(id).set(millis);
  }

  Replica replica(String id) {
    return live.get(id);
  }

  List<Replica> live() {
    return List.copyOf(live.values());
  }

  /** The live replica that leads (as some live replica knows it), other than {@code not}. */
  Replica leaderOtherThan(String not) throws InterruptedException, TimeoutException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
    String avoid = not;
    while (true) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (left <= 0) {
        throw new TimeoutException("no live leader other than " + not);
      }
      Replica asked = live().get(0);
      String leader = asked.node().awaitLeaderOtherThan(GROUP, avoid, left);
      Replica r = live.get(leader);
      if (r != null) {
        return r;
      }
      avoid = leader; // a stopped node: wait for the next election
    }
  }

  /**
   * Runs {@code op} on the leader's region; goes to another replica when the one it tried does not
   * lead (nothing happened there) or evaluated in a term that ended. Other failures (an outcome
   * unknown) go to the caller.
   */
  <T> T onLeader(Function<Region, T> op) throws InterruptedException, TimeoutException {
    String tried = null;
    for (int attempt = 0; ; attempt++) {
      Replica r = leaderOtherThan(tried);
      try {
        return op.apply(r.region());
      } catch (NotLeaderException | RegionClosedException e) {
        tried = r.id();
      } catch (StaleLeadershipException e) {
        tried = null; // it may lead again: ask again
      }
      if (attempt == 100) {
        throw new TimeoutException("no leader took the write after 100 attempts");
      }
    }
  }

  /** As {@link #onLeader}, for a write: returns the replica that took it. */
  Replica onLeaderReplica(Function<Region, ?> op) throws InterruptedException, TimeoutException {
    Replica[] on = new Replica[1];
    onLeader(region -> {
      op.apply(region);
      for (Replica r : live()) {
        if (r.region() == region) {
          on[0] = r;
        }
      }
      return null;
    });
    if (on[0] == null) {
      throw new RegionClosedException("the replica that took the write stopped");
    }
    return on[0];
  }

  /** Every visible version of every row of a replica's region, as bytes and sequence id. */
  static List<String> contents(Region r) {
    List<String> out = new ArrayList<>();
    try (RegionScanner s = r.scanner(ScanQuery.builder().maxVersions(Integer.MAX_VALUE).build())) {
      List<Cell> row = new ArrayList<>();
      while (s.nextRow(row)) {
        row.forEach(c -> out.add(HexFormat.of().formatHex(c.toBytes()) + "@" + c.seqId()));
        row.clear();
      }
    }
    return out;
  }


  @Override
  public void close() {
    for (String id : List.copyOf(live.keySet())) {
      stop(id);
    }
  }
}
