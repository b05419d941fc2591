package io.bellows.cluster.server;

import io.bellows.cluster.LogPosition;
import io.bellows.cluster.RaftNode;
import io.bellows.config.Knobs;
import io.bellows.fs.AtomicFiles;
import io.bellows.fs.LocalFileSystem;
import io.bellows.region.Region;
import io.bellows.util.Bytes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A member's part in the splits of its regions (docs/design/cluster.md, "Splitting a region"):
 * meta records a split first (the commit point: the table's rows route to the daughters from then
 * on), the parent's leader then appends the split to the parent's log ({@link #drive}), every
 * replica builds the daughters from the parent's files when it applies that entry ({@link #split})
 * and joins their groups, and once every replica of the parent holds the split, its leader appends
 * a retire entry to meta, on which each member removes its replica of the parent (once it applied
 * the split).
 *
 * <p>A replica's split is crash-safe by its order: each daughter's {@code region.txt}, then its
 * stores (hard links to the parent's files, staged and renamed whole) and answered calls, then the
 * parent's marker {@code split.txt}, the one step that decides; the daughters' groups are joined
 * after it. A member that dies before the marker replays the split entry at its restart (the
 * parent's log holds it: a checkpoint never passes an entry being applied) and makes what it lacks;
 * one that dies after it finds the marker when the parent's replica opens and joins the daughters
 * then ({@link #reopened}).
 */
final class ReplicaSplits {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicatedEngine.class); // the engine's messages, under its name
  /** The marker of a split parent in its replica's directory: the split's position, then its text. */
  static final String SPLIT_FILE = "split.txt";

  /** What the splits need of the member's engine. */
  interface Host {
    /** This member's replica of {@code group}, or null. */
    Replica replica(UUID group);

    /** Opens this member's replica of daughter {@code d} of {@code parent} from its directory, unless open; joins its group. */
    void openAndJoin(Replica parent, MetaCatalog.RegionEntry d);

    /** Every replica of this member. */
    java.util.Collection<Replica> replicas();

    /** Records this member's replica of a retired parent as removed: a restart never opens it. */
    void recordRemoved(UUID group);

    /** Removes this member's replica of a retired parent: its group left, its region closed, its directory deleted. */
    void remove(UUID group);

    boolean closed();

    /** How long a region's leader goes without a member's answer before it takes the member for down. */
    long silentMemberMillis();

    String selfId();

    /** Meta's peers: every member. */
    List<RaftNode.Peer> metaPeers();

    /** Appends the split's parent's retire entry to meta, through meta's leader. */
    java.util.concurrent.CompletableFuture<byte[]> retire(MetaCatalog.Split s);

    RaftNode node();

    List<RaftNode.Peer> peersOf(MetaCatalog.RegionEntry region);
  }

  private final ReplicaDirectories directories;
  private final MetaCatalog catalog;
  private final Host host;
  /** Parents whose split or retire entry this member is appending now. */
  private final Set<UUID> appending = ConcurrentHashMap.newKeySet();
  /** Regions whose automatic split this member is proposing now. */
  private final Set<UUID> asked = ConcurrentHashMap.newKeySet();
  /**
   * The {@code bellows-split} thread: the passes of {@link #drive} (every second, and when meta
   * applies a split), automatic splits' proposals, and retired parents' removal.
   */
  private final ScheduledExecutorService work = Executors.newSingleThreadScheduledExecutor(MemberWork.daemon("bellows-split"));

  ReplicaSplits(ReplicaDirectories directories, MetaCatalog catalog, Host host) {
    this.directories = directories;
    this.catalog = catalog;
    this.host = host;
  }

  /**
   * Applies the split entry of {@code parent}'s log ({@code text}, at {@code at}), on its apply
   * thread: unless the parent's marker says it is done, blocks the parent (writes wait, every store
   * flushed), makes each daughter's directory from the parent's files, writes the marker and closes
   * the parent; then opens the daughters and joins their groups. Idempotent.
   */
  void split(Replica parent, String text, LogPosition at) {
    MetaCatalog.Split s = MetaCatalog.Split.parse(text, null);
    Path marker = directories.of(parent.group).resolve(SPLIT_FILE);
    if (!Files.exists(marker)) {
      Region region = parent.region();
      region.blockForSplit();
      try {
        makeDaughter(parent, region, s.a());
        makeDaughter(parent, region, s.b());
        AtomicFiles.write(LocalFileSystem.INSTANCE, marker,
            ("at\t" + at.index() + "\n" + text).getBytes(StandardCharsets.UTF_8)); // the decision
        region.close(false); // flushed under the block: nothing is lost
      } catch (IOException e) {
        throw new UncheckedIOException("cannot split region " + region.id() + " in " + directories.of(parent.group), e);
      } finally {
        region.unblockAfterSplit();
      }
      LOG.info("region {} of table '{}' split at log position {} into regions {} and {}", region.id(),
          parent.descriptor.name(), at, s.a().id(), s.b().id());
    }
    parent.split = s;
    parent.splitIndex = at.index();
    host.openAndJoin(parent, s.a());
    host.openAndJoin(parent, s.b());
    if (catalog.isRetired(parent.group)) {
      remove(parent.group); // meta retired it while this replica had not applied the split yet
    }
  }

  /**
   * Makes daughter {@code d}'s directory from the blocked parent's files, unless its stores are
   * there (made before a crash): its {@code region.txt}, the parent's answered calls (a retried call
   * the parent applied is not applied again in the daughter), and its stores, hard links to the
   * parent's sorted files staged in {@code region.create/} and renamed whole.
   */
  private void makeDaughter(Replica parent, Region region, MetaCatalog.RegionEntry d)
      throws IOException {
    Path dir = directories.of(d.group());
    if (Files.isDirectory(dir.resolve(ReplicaFiles.REGION))) {
      return;
    }
    directories.record(parent.tableId, d, parent.descriptor);
    parent.applier.writeDaughterState(dir);
    Path staging = dir.resolve(ReplicaFiles.REGION + ".create");
    List<Path> left = ReplicaFiles.deleteRegionCopy(staging);
    if (!left.isEmpty()) {
      throw new IOException("a leftover " + staging + " holds files Bellows did not make: " + left);
    }
    region.linkStoresInto(staging);
    AtomicFiles.createDirectories(LocalFileSystem.INSTANCE, staging); // a table without families has no store
    AtomicFiles.moveAtomically(LocalFileSystem.INSTANCE, staging, dir.resolve(ReplicaFiles.REGION));
  }

  /**
   * A replica of {@code group} was opened from its directory: if it is a split parent (its marker),
   * its region is closed, its later writes answered as moved, and its daughters opened and joined
   * (a member that died between the marker and joining them). Returns whether it was split.
   */
  boolean reopened(Replica r) {
    Path marker = directories.of(r.group).resolve(SPLIT_FILE);
    if (!Files.exists(marker)) {
      return false;
    }
    String text;
    try {
      text = Files.readString(marker, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + marker, e);
    }
    int nl = text.indexOf('\n');
    r.split = MetaCatalog.Split.parse(text.substring(nl + 1), null);
    r.splitIndex = Long.parseLong(text.substring(0, nl).split("\t")[1]);
    r.applier.markSplit();
    r.region().close(false);
    return true;
  }

  /** Opens and joins the daughters of a split parent that {@link #reopened} found (after the node started). */
  void joinDaughters(Replica r) {
    MetaCatalog.Split s = r.split;
    if (s == null) {
      return; // its apply thread is splitting it now, and joins the daughters itself
    }
    host.openAndJoin(r, s.a());
    host.openAndJoin(r, s.b());
  }

  /** Starts the passes of {@link #drive}, every second. */
  void start() {
    work.scheduleWithFixedDelay(this::pass, 1, 1, TimeUnit.SECONDS);
  }

  /** A pass of {@link #drive} now (meta applied a split: this member may lead its parent). */
  void kick() {
    submit(this::pass);
  }

  /** Runs {@code task} on the split thread, unless the member is closing (its thread stopped: nothing more to do). */
  private void submit(Runnable task) {
    try {
      work.execute(task);
    } catch (java.util.concurrent.RejectedExecutionException closing) {
      LOG.debug("member {}: the split thread has stopped; a task was dropped", host.selfId());
    }
  }

  void close() {
    work.shutdownNow();
  }

  private void pass() {
    if (host.closed()) {
      return;
    }
    try {
      drive();
    } catch (RuntimeException e) {
      LOG.warn("member {}: a pass over the regions' splits failed: {}", host.selfId(), e.toString(), e);
    }
  }

  /**
   * Meta retired the split parent in {@code group}, and this member's replica of it has applied the
   * split: it is recorded as removed at once and removed off the apply thread — its group left, its
   * region closed, its directory deleted (the daughters keep their links to the files).
   */
  void remove(UUID group) {
    host.recordRemoved(group);
    submit(() -> host.remove(group)); // recorded as removed: a member that closes first finishes it at its start
  }

  /**
   * After a flush or compaction of a region: if this member leads it and its largest store's sorted
   * files reach the table's {@code MAX_FILESIZE}, proposes its split at its middle key to meta (on
   * the split thread; through meta's leader), as one server splits its regions by themselves. Not
   * while a daughter's files still hold the parent's rows (they count twice until its compaction),
   * nor while a member holding the region is not heard from (the region's leader knows): it is
   * asked again after the next flush or compaction.
   */
  void maybeSplit(Region region) {
    if (host.closed() || region.isClosedForWork()
        || region.largestStoreBytes() < region.descriptor().get(Knobs.MAX_FILESIZE) || region.holdsRowsOutsideRange()) {
      return;
    }
    for (Replica r : host.replicas()) {
      if (r.region() == region && r.replicated != null && r.replicated.isLeader() && !r.applier.isSplit()
          && asked.add(r.group)) {
        submit(() -> {
          try {
            proposeSplit(r);
          } catch (RuntimeException e) {
            LOG.warn("member {}: the automatic split of region {} failed; it is asked again after its next flush or"
                + " compaction: {}", host.selfId(), r.regionId, e.toString());
          } finally {
            asked.remove(r.group);
          }
        });
      }
    }
  }

  private void proposeSplit(Replica r) {
    MetaCatalog.TableEntry t = catalog.table(r.descriptor.name());
    MetaCatalog.RegionEntry g = t == null || t.id() != r.tableId || !t.enabled() ? null
        : t.regions().stream().filter(x -> x.group().equals(r.group)).findFirst().orElse(null);
    if (g == null || !host.node().members().silentPeers(r.group, host.silentMemberMillis()).isEmpty()) {
      return; // dropped, disabled or split already; or a replica not heard from
    }
    byte[] key = r.region().midKey();
    if (key == null || !MetaCatalog.inside(key, g)) {
      return;
    }
    LOG.info("member {}: region {} of table '{}' reached MAX_FILESIZE; proposing its split at '{}'", host.selfId(),
        g.id(), t.descriptor().name(), Bytes.toStringBinary(key));
    byte[] reply = ReplicatedEngine.join(host.node().appendThroughLeader(ReplicatedEngine.META, host.metaPeers(),
        MetaCatalog.splitRegion(t.descriptor().name(), t.id(), g.group(), key, UUID.randomUUID(), UUID.randomUUID())));
    LOG.info("member {}: meta answered the split of region {}: {}", host.selfId(), g.id(),
        new String(reply, StandardCharsets.UTF_8).replace('\t', ' '));
  }

  /**
   * Waits (at most {@code timeoutMillis}) until this member knows a leader of each of the split's
   * daughters; false if it did not.
   */
  boolean awaitLeaders(MetaCatalog.Split s, long timeoutMillis) {
    RaftNode n = host.node();
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    for (MetaCatalog.RegionEntry d : List.of(s.a(), s.b())) {
      while (!n.holds(d.group()) || n.log(d.group()).leader() == null) {
        if (System.nanoTime() - end > 0) {
          LOG.warn("split of region {}: daughter {} has no leader after {} ms", s.parent().id(), d.id(), timeoutMillis);
          return false;
        }
        try {
          Thread.sleep(10); // polling this member's view; the daughters' first election takes a short timeout
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return true;
  }

  /**
   * One pass of this member's part in the splits meta recorded: for each parent this member's replica
   * leads, appends the split entry if the replica has not applied it, else, once every peer's log
   * holds the split (the leader's commit index of each), the retire entry to meta: a member that
   * removed its replica on a retire in the parent's own log could leave a member that had not
   * received it yet with no leader to receive it from; meta's log reaches every member. A pass runs after meta
   * applies a split and every second: a parent's leader that changes or dies mid-way leaves the rest
   * to the next one.
   */
  void drive() {
    for (MetaCatalog.Split s : catalog.splits()) {
      UUID group = s.parent().group();
      Replica p = host.replica(group);
      if (p == null || p.replicated == null || !p.replicated.isLeader() || appending.contains(group)) {
        continue;
      }
      java.util.concurrent.CompletableFuture<?> appended;
      String what;
      if (!p.applier.isSplit()) {
        what = "split";
        appended = p.log.appendCommand(s.command());
      } else if (p.splitIndex >= 0 && !catalog.isRetired(group)
          && host.node().members().everyPeerCommitted(group, host.peersOf(s.parent()), p.splitIndex)) {
        what = "retire";
        appended = host.retire(s);
      } else {
        continue;
      }
      appending.add(group);
      appended.whenComplete((reply, error) -> {
        appending.remove(group);
        if (error != null) {
          LOG.info("region {}: appending its {} entry failed ({}); the next pass tries again", s.parent().id(), what,
              error.toString());
        }
      });
    }
  }
}
