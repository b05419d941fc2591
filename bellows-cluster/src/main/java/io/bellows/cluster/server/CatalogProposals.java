package io.bellows.cluster.server;

import io.bellows.cluster.NotLeaderException;
import io.bellows.cluster.RaftNode;
import io.bellows.cluster.ReplicatedLog;
import io.bellows.engine.SplitKeys;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.StorageException;
import io.bellows.util.TableExistsException;
import io.bellows.util.TableNotEnabledException;
import io.bellows.util.TableNotFoundException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a member proposes to meta's log to change the catalog — a table's creation, disabling,
 * enabling and drop — on meta's leader, checked there against the catalog first (a refusal
 * appends nothing), and the waits after each: a creation is acknowledged once every member holds
 * the new regions' logs, a change of state once every live member applied it, so that no member
 * serves the table as it was once the call returns. Applying the entries is {@link MetaCatalog}'s.
 */
final class CatalogProposals {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicatedEngine.class); // the engine's messages, under its name

  private final ReplicatedLog meta;
  private final MetaCatalog catalog;
  /** The cluster's members as this member knows them. */
  private final MemberBook book;
  private final String selfId;
  private final CompletableFuture<RaftNode> started;
  private final long silentMemberMillis;
  /** How many members hold each new region's replicas ({@link Placement}). */
  private final int replication;
  /** The table of a name, or TableNotFoundException. */
  private final Function<String, MetaCatalog.TableEntry> lookup;
  /** The answer of a member that does not lead what it was asked about (what, the leader's id or null). */
  private final BiFunction<String, String, RegionNotLeaderException> notLeader;
  /** Disables, enables and drops proposed here one at a time, so each is checked against the state the last left. */
  private final Object tableStates = new Object();

  CatalogProposals(ReplicatedLog meta, MetaCatalog catalog, MemberBook book, String selfId,
      CompletableFuture<RaftNode> started, long silentMemberMillis, int replication,
      Function<String, MetaCatalog.TableEntry> lookup, BiFunction<String, String, RegionNotLeaderException> notLeader) {
    this.meta = meta;
    this.catalog = catalog;
    this.book = book;
    this.selfId = selfId;
    this.started = started;
    this.silentMemberMillis = silentMemberMillis;
    this.replication = replication;
    this.lookup = lookup;
    this.notLeader = notLeader;
  }

  /**
   * Proposes a table's creation to meta on its leader (each region placed on the {@code
   * replication} members holding fewest replicas, {@link Placement}), then waits for every peer to
   * hold each new region's log ({@link #awaitEveryReplica}).
   */
  void createTable(TableDescriptor descriptor, List<byte[]> splitKeys) {
    SplitKeys.check(splitKeys);
    if (!meta.isLeader()) {
      throw notLeader.apply("the catalog", meta.leader());
    }
    List<String> everyMember = metaMembers(started.join());
    byte[] entry;
    if (splitKeys.isEmpty() && replication >= everyMember.size() && catalog.decommissioned().isEmpty()
        && catalog.added().isEmpty()) {
      entry = MetaCatalog.createTable(descriptor, UUID.randomUUID(), ReplicatedEngine.BASE); // the first builds' form
    } else {
      List<String> open = new ArrayList<>(everyMember);
      open.removeAll(catalog.decommissioned());
      List<List<String>> placed = Placement.place(open.isEmpty() ? everyMember : open, replication,
          Placement.held(catalog), splitKeys.size() + 1);
      List<MetaCatalog.NewRegion> regions = new ArrayList<>();
      for (List<String> p : placed) {
        regions.add(new MetaCatalog.NewRegion(UUID.randomUUID(), ReplicatedEngine.BASE, p));
      }
      entry = MetaCatalog.createTable(descriptor, splitKeys, regions);
    }
    byte[] reply;
    try {
      reply = ReplicatedEngine.join(meta.append(entry));
    } catch (NotLeaderException e) {
      throw notLeader.apply("the catalog", e.leader());
    }
    if (new String(reply, StandardCharsets.UTF_8).equals(MetaCatalog.EXISTS)) {
      throw new TableExistsException("table '" + descriptor.name() + "' already exists");
    }
    awaitEveryReplica(descriptor.name());
  }

  /**
   * After a table's creation, before it is acknowledged: waits (at most {@link
   * ReplicatedEngine#NEW_GROUP_WAIT_MS} for all its regions) until every member holds the first
   * entry of each new region's log. Ratis
   * counts no vote from a member whose log is empty once the group has committed entries, so a
   * region whose leader died before a member slow to apply the catalog's entry had received
   * anything would stay without a leader until that leader came back. A member that meta's leader
   * (this one) has not heard from for two election timeouts is taken for down and not waited for:
   * the table is created, and the member catches up when it returns (until then, as with any
   * region with a member down, a second failure leaves the region without a majority).
   */
  private void awaitEveryReplica(String table) {
    MetaCatalog.TableEntry t = catalog.table(table);
    if (t == null) {
      return; // dropped at once by another call
    }
    RaftNode n = started.join();
    Set<String> down = n.members().silentPeers(ReplicatedEngine.META, silentMemberMillis);
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ReplicatedEngine.NEW_GROUP_WAIT_MS);
    for (MetaCatalog.RegionEntry g : t.regions()) {
      if (g.peers().stream().anyMatch(down::contains)) {
        continue;
      }
      long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
      if (!n.members().awaitEveryReplica(g.group(), peersOf(g), left)) {
        LOG.warn("table '{}' created; not every member holds region {}'s log within {} ms (a member down or slow):"
            + " until it does, that region needs its leader to stay up", table, g.id(),
            ReplicatedEngine.NEW_GROUP_WAIT_MS);
        return;
      }
    }
  }

  /**
   * Appends {@code kind}'s entry for table {@code name} to meta, on its leader, once it can apply
   * (else the refusal a standalone engine gives, with nothing appended); then waits until every
   * live member has applied it, so that no member serves the table as it was once this returns.
   * A member that does not know the table answers that it does not exist before it says it does not
   * lead meta, so a client going round the members learns that a missing table is missing.
   */
  void changeState(String name, String kind, BiFunction<String, Integer, byte[]> entry) {
    synchronized (tableStates) {
      MetaCatalog.TableEntry t = lookup.apply(name);
      if (!meta.isLeader()) {
        throw notLeader.apply("the catalog", meta.leader());
      }
      String refusal = refusal(kind, t.enabled());
      if (refusal != null) {
        throw refused(name, kind, refusal);
      }
      byte[] reply;
      try {
        reply = ReplicatedEngine.join(meta.append(entry.apply(name, t.id())));
      } catch (NotLeaderException e) {
        throw notLeader.apply("the catalog", e.leader());
      }
      String answer = new String(reply, StandardCharsets.UTF_8);
      if (!answer.equals(MetaCatalog.DONE)) {
        throw refused(name, kind, answer); // changed since the check, by an entry proposed before this member led meta
      }
      awaitEveryMember(kind + " of table '" + name + "'");
    }
  }

  /** Why {@code kind} cannot apply to a table that is {@code enabled} or not, as the catalog would reply; null if it can. */
  private static String refusal(String kind, boolean enabled) {
    return switch (kind) {
      case "disable", "drop" -> enabled == kind.equals("disable") ? null : MetaCatalog.NOT_ENABLED;
      default -> enabled ? MetaCatalog.NOT_DISABLED : null;
    };
  }

  /** The exception (and words) a standalone engine has for the catalog's refusal {@code answer} of {@code kind}. */
  private static RuntimeException refused(String name, String kind, String answer) {
    return switch (answer) {
      case MetaCatalog.NOT_FOUND -> new TableNotFoundException("table '" + name + "' does not exist");
      case MetaCatalog.NOT_ENABLED -> new TableNotEnabledException(kind.equals("drop")
          ? "table '" + name + "' is enabled: disable it before dropping it"
          : "table '" + name + "' is already disabled");
      case MetaCatalog.NOT_DISABLED -> new StorageException("table '" + name + "' is already enabled");
      case MetaCatalog.NO_SUCH_REGION -> new StorageException("table '" + name + "': the region to split was split"
          + " or changed meanwhile; try again");
      case MetaCatalog.MOVE_PENDING -> new io.bellows.util.RefusedException("table '" + name + "': a replica of the"
          + " region is moving; " + kind + " it once the move is done");
      default -> new StorageException("the catalog answered '" + answer + "' for table '" + name + "'");
    };
  }

  /**
   * Waits (at most {@link ReplicatedEngine#NEW_GROUP_WAIT_MS} in all) until every other member that meta's leader
   * (this one) has heard from within two election timeouts has applied meta's log as far as this
   * one has: a member that had not could still serve the table as it was. A member down applies
   * the entry when it is back (docs/design/cluster.md, "Disabling and dropping a table").
   */
  private void awaitEveryMember(String what) {
    RaftNode n = started.join();
    Set<String> down = n.members().silentPeers(ReplicatedEngine.META, silentMemberMillis);
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ReplicatedEngine.NEW_GROUP_WAIT_MS);
    List<RaftNode.Peer> inMeta = book.peers(metaMembers(n));
    for (RaftNode.Peer p : inMeta) {
      if (p.id().equals(selfId) || down.contains(p.id())) {
        continue;
      }
      if (!n.members().awaitApplied(ReplicatedEngine.META, inMeta, p.id(), TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()))) {
        LOG.warn("{}: member {} has not applied it within {} ms (down or slow)", what, p.id(), ReplicatedEngine.NEW_GROUP_WAIT_MS);
      }
    }
  }

  /**
   * Proposes the split of table {@code t}'s region holding {@code key} at that key to meta, on its
   * leader; refused with nothing appended if the key is the region's first row, or while meta's
   * leader (this member) has not heard from a member holding the region for two election timeouts
   * (its replica would build no daughters until it is back, and its log would have to outlive the
   * parent's). Returns the split meta recorded.
   */
  MetaCatalog.Split split(MetaCatalog.TableEntry t, byte[] key) {
    if (!meta.isLeader()) {
      throw notLeader.apply("the catalog", meta.leader());
    }
    MetaCatalog.RegionEntry region = t.regions().get(t.ranges().indexOf(key));
    if (!MetaCatalog.inside(key, region)) {
      throw new IllegalArgumentException("split key '" + io.bellows.util.Bytes.toStringBinary(key) + "' is the start of"
          + " region " + region.id() + " already: a split key must lie strictly inside a region");
    }
    Set<String> down = started.join().members().silentPeers(ReplicatedEngine.META, silentMemberMillis);
    for (String p : region.peers()) {
      if (down.contains(p)) {
        throw new StorageException("cannot split region " + region.id() + " of table '" + t.descriptor().name()
            + "' now: member " + p + " holds a replica of it and is not answering; a split needs every replica up");
      }
    }
    byte[] reply;
    try {
      reply = ReplicatedEngine.join(meta.append(MetaCatalog.splitRegion(t.descriptor().name(), t.id(), region.group(),
          key, UUID.randomUUID(), UUID.randomUUID())));
    } catch (NotLeaderException e) {
      throw notLeader.apply("the catalog", e.leader());
    }
    String answer = new String(reply, StandardCharsets.UTF_8);
    if (!answer.startsWith("split\t")) {
      throw refused(t.descriptor().name(), "split", answer); // dropped, or that region split meanwhile
    }
    return catalog.splitOf(region.group());
  }

  private List<RaftNode.Peer> peersOf(MetaCatalog.RegionEntry g) {
    return book.peers(g.peers());
  }

  /**
   * The members of meta's group, as this member's replica of it knows them, in the book's order:
   * the members regions may be placed on (one added to the cluster but not yet to meta is not).
   */
  private List<String> metaMembers(RaftNode n) {
    List<String> inMeta = n.members().of(ReplicatedEngine.META);
    return inMeta == null ? book.ids() : book.ids().stream().filter(inMeta::contains).toList();
  }
}
