package io.bellows.cluster.server;

import io.bellows.cluster.LogApplier;
import io.bellows.cluster.LogPosition;
import io.bellows.engine.RowRanges;
import io.bellows.schema.TableDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The cluster's catalog, the state machine of the meta group (a Raft group over every member):
 * tables, each with its regions in key order, each region with its Raft group id, sequence base,
 * row range and peers. An entry creates a table with all its regions at once; every member applies
 * it in log order, giving the table the next table id and each region the next region ids, and
 * opening its replicas of the regions ({@link Effects#opened}, on the apply thread, so a later entry's
 * effects follow it). Entries disable, enable and drop a table named by name and id; one that
 * cannot apply (no such table, or not in the state it needs) changes nothing and says why in its
 * reply, so every member refuses it alike. A "member joined" entry changes nothing ({@link
 * #memberJoined}).
 *
 * <p>The catalog is kept in memory and rebuilt at a restart by replaying the meta log from its
 * start: meta is never checkpointed (it is small: a few entries per table), which a later step that
 * alters and splits tables may change (a snapshot of the catalog). That replay is also what
 * makes a table's creation whole on a member that died while opening its regions, and a drop
 * whole on one that died while removing them: the entry is applied again, and the effects finish
 * what is missing.
 */
final class MetaCatalog implements LogApplier {
  /**
   * A region of a cluster's table: its id (engine-wide on every member, in creation order), Raft
   * group, sequence base, rows [{@code start}, {@code end}) (empty: unbounded) and the ids of the
   * members holding its replicas.
   */
  record RegionEntry(int id, UUID group, long base, byte[] start, byte[] end, List<String> peers) {
    RegionEntry {
      peers = List.copyOf(peers);
    }
  }

  /** A region of a table about to be created: what the creating member chooses. */
  record NewRegion(UUID group, long base, List<String> peers) {}

  /**
   * A table of the cluster: its id (in creation order, never reused), descriptor, regions in key
   * order, and whether it is enabled (a disabled table refuses data calls; only a disabled one can
   * be dropped).
   */
  record TableEntry(int id, TableDescriptor descriptor, List<RegionEntry> regions, boolean enabled) {
    TableEntry {
      regions = List.copyOf(regions);
    }

    TableEntry(int id, TableDescriptor descriptor, List<RegionEntry> regions) {
      this(id, descriptor, regions, true);
    }

    /** The group of the table's first region (its only one, for a table created without split keys). */
    UUID group() {
      return regions.get(0).group();
    }

    /** The first region's sequence base. */
    long base() {
      return regions.get(0).base();
    }

    /** The regions' row ranges. */
    RowRanges ranges() {
      List<byte[]> starts = new ArrayList<>(regions.size());
      for (RegionEntry r : regions) {
        starts.add(r.start());
      }
      return RowRanges.ofStarts(starts);
    }
  }

  /**
   * What a member does when it applies an entry, on meta's apply thread (so the next entry's
   * effects follow): each must be idempotent, as a restart applies every entry again.
   */
  interface Effects {
    /** A table was created: open this member's replicas of its regions. */
    void opened(TableEntry table);

    /** A table was disabled (the entry it is now). */
    default void disabled(TableEntry table) {}

    /** A table was dropped (the entry it was): remove this member's replicas of its regions. */
    default void dropped(TableEntry table) {}

    /**
     * A region of a table was split (the table as it is now): the region's replicas split when its
     * log reaches the split ({@link Split#command}), which this member's replica of the parent's
     * leader appends.
     */
    default void split(TableEntry table, Split split) {}

    /**
     * Every replica of a split's parent holds the split in its log: this member removes its replica
     * of the parent once it has applied the split.
     */
    default void retired(Split split) {}

    /**
     * A region's replica began to move ({@link ReplicaMove}): the catalog names {@code to} among
     * its peers and no longer {@code from}; the member {@code to} seeds its replica and joins the
     * region's group.
     */
    default void moving(ReplicaMove move) {}

    /**
     * A replica's move is done: the region's group no longer counts {@code from}, which removes its
     * replica.
     */
    default void moved(ReplicaMove move) {}

    /** A member was added to the cluster ({@link #addMember}): every member learns its addresses. */
    default void memberAdded(Members.Member member) {}
  }

  /**
   * A move of the replica of region {@code group} of table {@code table} (of id {@code tableId})
   * from member {@code from} to member {@code to}, from its {@code move-replica} entry until its
   * {@code moved-replica} entry (docs/design/cluster.md, "Moving a replica").
   */
  record ReplicaMove(String table, int tableId, UUID group, String from, String to) {}

  /**
   * A split of region {@code parent} of table {@code tableId} at {@code a}'s end into {@code a} and
   * {@code b}: what meta records and what the parent's log carries to its replicas ({@link #command}).
   */
  record Split(int tableId, RegionEntry parent, RegionEntry a, RegionEntry b) {
    /**
     * The split as text, the payload of the parent's split entry (docs/FORMAT.md, "Replicated
     * region entry"): {@code split TAB TABLE-ID TAB PARENT-GROUP LF}, then a line per daughter as a
     * {@code create-table-regions} entry has them, with the region's id first.
     */
    String command() {
      return "split\t" + tableId + "\t" + parent.group() + "\n" + line(a) + line(b);
    }

    private static String line(RegionEntry r) {
      return "region\t" + r.id() + "\t" + r.group() + "\t" + r.base() + "\t" + HEX.formatHex(r.start()) + "\t"
          + HEX.formatHex(r.end()) + "\t" + String.join(",", r.peers()) + "\n";
    }

    /** The split {@link #command} wrote; {@code parent} is the parent's entry as this member knows it. */
    static Split parse(String text, RegionEntry parent) {
      String[] lines = text.split("\n");
      String[] head = lines[0].split("\t", -1);
      if (lines.length != 3 || head.length != 3 || !head[0].equals("split")) {
        throw new IllegalArgumentException("not a split: " + text);
      }
      return new Split(Integer.parseInt(head[1]), parent, region(lines[1]), region(lines[2]));
    }

    /** The parent group a split's text names. */
    static UUID parentOf(String text) {
      String head = text.substring(0, text.indexOf('\n'));
      return UUID.fromString(head.split("\t", -1)[2]);
    }

    private static RegionEntry region(String line) {
      String[] f = line.split("\t", -1);
      if (f.length != 7 || !f[0].equals("region")) {
        throw new IllegalArgumentException("not a daughter region: " + line);
      }
      return new RegionEntry(Integer.parseInt(f[1]), UUID.fromString(f[2]), Long.parseLong(f[3]), HEX.parseHex(f[4]),
          HEX.parseHex(f[5]), List.of(f[6].split(",")));
    }
  }

  static final String EXISTS = "exists";
  static final String JOINED = "joined";
  /** The reply to a disable, enable or drop that applied. */
  static final String DONE = "done";
  /** The reply to a disable, enable or drop of a table that does not exist (or is another of its name now). */
  static final String NOT_FOUND = "not-found";
  /** The reply to a disable of a disabled table, or a drop of an enabled one. */
  static final String NOT_ENABLED = "not-enabled";
  /** The reply to an enable of an enabled table. */
  static final String NOT_DISABLED = "not-disabled";
  /** The reply to a split of a region the table no longer has (split already), or at a key outside it. */
  static final String NO_SUCH_REGION = "no-such-region";
  /** The reply to a move begun: the region's peers name the new member. */
  static final String MOVING = "moving";
  /** The reply to a split or a move of a region whose replica is moving already. */
  static final String MOVE_PENDING = "move-pending";
  /** The reply to a move from a member that holds no replica of the region, or to one that holds one. */
  static final String NOT_A_MOVE = "not-a-move";
  /** The reply to an added member whose id is a founding member's, or an added one's at other addresses. */
  static final String CONFLICT = "conflict";
  /**
   * How far above its parent's sequence base a daughter's starts: a region's ids are its base plus
   * its log's positions, so the daughters' ids lie above every id of the parent's files as long as
   * the parent's log stays below 2^40 entries (a split refuses a parent that does not).
   */
  static final long SPLIT_BASE_STEP = 1L << 40;
  private static final HexFormat HEX = HexFormat.of();

  private final Map<String, TableEntry> tables = new LinkedHashMap<>();
  /** The splits applied, by parent group: the parents' replicas live on until they are retired. */
  private final Map<UUID, Split> splits = new LinkedHashMap<>();
  /** The split parents retired: every member removes its replica of each once it applied the split. */
  private final java.util.Set<UUID> retired = new java.util.HashSet<>();
  /** The members decommissioned: no new replica goes there, and theirs move off. */
  private final java.util.Set<String> decommissioned = new java.util.TreeSet<>();
  /** The members added to the running cluster, in the order of their entries, by id. */
  private final Map<String, Members.Member> added = new LinkedHashMap<>();
  /** The replica moves begun and not done, by region group. */
  private final Map<UUID, ReplicaMove> moves = new LinkedHashMap<>();
  private final Effects effects;
  private final List<String> members;
  private int regionIds;
  /** The last table id given: ids are never reused, so a table created again after a drop is another. */
  private int tableIds;

  /**
   * A catalog of a cluster founded by {@code members} (their ids: the peers of a region created
   * before regions named theirs), with what applying its entries does on this member.
   */
  MetaCatalog(List<String> members, Effects effects) {
    this.members = List.copyOf(members);
    this.effects = effects;
  }

  /**
   * The entry that creates {@code descriptor} with one region (every row) in group {@code group}
   * from sequence id {@code base}, on every member: the format of the first builds, kept for tables
   * without split keys so that members of those builds read it.
   */
  static byte[] createTable(TableDescriptor descriptor, UUID group, long base) {
    return ("create-table\t" + group + "\t" + base + "\n" + TableText.encode(descriptor)).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The entry that creates {@code descriptor} pre-split at {@code splitKeys} (checked: {@code
   * SplitKeys.check}), region {@code i} in {@code regions.get(i)}'s group with its base and peers.
   */
  static byte[] createTable(TableDescriptor descriptor, List<byte[]> splitKeys, List<NewRegion> regions) {
    if (regions.size() != splitKeys.size() + 1) {
      throw new IllegalArgumentException(splitKeys.size() + " split keys make " + (splitKeys.size() + 1)
          + " regions, not " + regions.size());
    }
    RowRanges ranges = RowRanges.ofSplitKeys(splitKeys);
    StringBuilder sb = new StringBuilder("create-table-regions\t").append(regions.size()).append('\n');
    for (int i = 0; i < regions.size(); i++) {
      NewRegion r = regions.get(i);
      sb.append("region\t").append(r.group()).append('\t').append(r.base()).append('\t')
          .append(HEX.formatHex(ranges.start(i))).append('\t').append(HEX.formatHex(ranges.end(i))).append('\t')
          .append(String.join(",", r.peers())).append('\n');
    }
    return sb.append(TableText.encode(descriptor)).toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The entry a member appends (through meta's leader) when it starts without a replica of meta: on
   * a cluster's first start, or after it lost its data directory. It changes nothing; it is there
   * because meta's leader sends its log only to a follower it believes behind, and after a disk loss
   * it believes the follower still holds what it acknowledged before (Raft's followers never lose
   * what they acknowledged; Ratis keeps their match index). A new entry makes the leader send it,
   * the empty follower refuses it, and that refusal of an entry, unlike a heartbeat's, moves the
   * leader back to the log's start; unless the refusals have already paused the leader's appender
   * for the member, which then sends heartbeats only, and the member asks the leader to hand its
   * leadership to another member
   * (RaftNode; docs/design/cluster.md, "A member that lost its disk").
   */
  static byte[] memberJoined(String member) {
    return ("member-joined\t" + member + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /** The entry that disables table {@code name} of id {@code id} (a table of that name but another id is not it). */
  static byte[] disableTable(String name, int id) {
    return stateEntry("disable-table", name, id);
  }

  /** The entry that enables the disabled table {@code name} of id {@code id}. */
  static byte[] enableTable(String name, int id) {
    return stateEntry("enable-table", name, id);
  }

  /** The entry that drops the disabled table {@code name} of id {@code id}, its regions with it. */
  static byte[] dropTable(String name, int id) {
    return stateEntry("drop-table", name, id);
  }

  /**
   * The entry that splits the region of table {@code name} (of id {@code id}) in group {@code parent}
   * at {@code key} into two new regions in groups {@code a} (rows below the key) and {@code b}, on
   * the parent's peers.
   */
  static byte[] splitRegion(String name, int id, UUID parent, byte[] key, UUID a, UUID b) {
    return ("split-region\t" + name + "\t" + id + "\t" + parent + "\t" + HEX.formatHex(key) + "\t" + a + "\t" + b
        + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The entry that retires the split parent in group {@code parent} of table {@code name} (of id
   * {@code id}): its leader appends it once every replica's log holds the split.
   */
  static byte[] retireRegion(String name, int id, UUID parent) {
    return ("retire-region\t" + name + "\t" + id + "\t" + parent + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The entry that begins to move the replica of region {@code group} of table {@code name} (of id
   * {@code id}) from member {@code from} to member {@code to}: the region's peers name {@code to}
   * in {@code from}'s place from then on.
   */
  static byte[] moveReplica(String name, int id, UUID group, String from, String to) {
    return moveEntry("move-replica", name, id, group, from, to);
  }

  /** The entry that ends a replica's move, once the region's group counts {@code to} and no longer {@code from}. */
  static byte[] movedReplica(ReplicaMove m) {
    return moveEntry("moved-replica", m.table(), m.tableId(), m.group(), m.from(), m.to());
  }

  /** The entry that decommissions members {@code ids}: no new replica goes on them, and theirs move off. */
  static byte[] decommission(List<String> ids) {
    return ("decommission-members\t" + String.join(",", ids) + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /** The entry that takes member {@code id} back: new replicas may go on it again. */
  static byte[] recommission(String id) {
    return ("recommission-member\t" + id + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The entry that adds member {@code m} to the cluster: every member records its addresses. Meta's
   * group gains it once it answers (its leader's membership change, not this entry).
   */
  static byte[] addMember(Members.Member m) {
    return ("add-member\t" + m.id() + "\t" + m.raftAddress() + "\t" + m.clientAddress() + "\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** The members added to the running cluster, in the order they were added. */
  synchronized List<Members.Member> added() {
    return new ArrayList<>(added.values());
  }

  /** The members decommissioned, in id order. */
  synchronized List<String> decommissioned() {
    return new ArrayList<>(decommissioned);
  }

  private static byte[] moveEntry(String kind, String name, int id, UUID group, String from, String to) {
    return (kind + "\t" + name + "\t" + id + "\t" + group + "\t" + from + "\t" + to + "\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] stateEntry(String kind, String name, int id) {
    return (kind + "\t" + name + "\t" + id + "\n").getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public byte[] apply(LogPosition at, byte[] entry) {
    String text = new String(entry, StandardCharsets.UTF_8);
    int nl = text.indexOf('\n');
    String[] head = text.substring(0, nl).split("\t");
    switch (head[0]) {
      case "member-joined" -> {
        return JOINED.getBytes(StandardCharsets.UTF_8);
      }
      case "split-region" -> {
        if (head.length != 7) {
          throw new IllegalStateException("bad meta entry at " + at + ": " + text.substring(0, nl));
        }
        return split(head[1], Integer.parseInt(head[2]), UUID.fromString(head[3]), HEX.parseHex(head[4]),
            UUID.fromString(head[5]), UUID.fromString(head[6])).getBytes(StandardCharsets.UTF_8);
      }
      case "retire-region" -> {
        if (head.length != 4) {
          throw new IllegalStateException("bad meta entry at " + at + ": " + text.substring(0, nl));
        }
        return retire(head[1], Integer.parseInt(head[2]), UUID.fromString(head[3])).getBytes(StandardCharsets.UTF_8);
      }
      case "decommission-members" -> {
        if (head.length != 2) {
          throw new IllegalStateException("bad meta entry at " + at + ": " + text.substring(0, nl));
        }
        synchronized (this) {
          decommissioned.addAll(List.of(head[1].split(",")));
        }
        return DONE.getBytes(StandardCharsets.UTF_8);
      }
      case "add-member" -> {
        if (head.length != 4) {
          throw new IllegalStateException("bad meta entry at " + at + ": " + text.substring(0, nl));
        }
        Members.Member m = new Members.Member(head[1], head[2], head[3], true);
        synchronized (this) {
          Members.Member was = added.get(m.id());
          if (was != null || members.contains(m.id())) {
            return (m.equals(was) ? EXISTS : CONFLICT).getBytes(StandardCharsets.UTF_8);
          }
          added.put(m.id(), m);
        }
        effects.memberAdded(m);
        return DONE.getBytes(StandardCharsets.UTF_8);
      }
      case "recommission-member" -> {
        if (head.length != 2) {
          throw new IllegalStateException("bad meta entry at " + at + ": " + text.substring(0, nl));
        }
        synchronized (this) {
          return (decommissioned.remove(head[1]) ? DONE : NOT_FOUND).getBytes(StandardCharsets.UTF_8);
        }
      }
      case "move-replica", "moved-replica" -> {
        if (head.length != 6) {
          throw new IllegalStateException("bad meta entry at " + at + ": " + text.substring(0, nl));
        }
        ReplicaMove m = new ReplicaMove(head[1], Integer.parseInt(head[2]), UUID.fromString(head[3]), head[4], head[5]);
        return (head[0].equals("move-replica") ? beginMove(m) : endMove(m)).getBytes(StandardCharsets.UTF_8);
      }
      case "disable-table", "enable-table", "drop-table" -> {
        if (head.length != 3) {
          throw new IllegalStateException("bad meta entry at " + at + ": " + text.substring(0, nl));
        }
        return changeState(head[0], head[1], Integer.parseInt(head[2])).getBytes(StandardCharsets.UTF_8);
      }
      default -> {
        return create(at, text, head, nl);
      }
    }
  }

  /**
   * Disables, enables or drops table {@code name} of id {@code id}, if it is in the state that
   * needs; else changes nothing and answers why. The same on every member: the state is the log's.
   */
  private String changeState(String kind, String name, int id) {
    TableEntry was;
    TableEntry now;
    synchronized (this) {
      was = tables.get(name);
      if (was == null || was.id() != id) {
        return NOT_FOUND;
      }
      switch (kind) {
        case "disable-table" -> {
          if (!was.enabled()) {
            return NOT_ENABLED;
          }
          now = new TableEntry(was.id(), was.descriptor(), was.regions(), false);
          tables.put(name, now);
        }
        case "enable-table" -> {
          if (was.enabled()) {
            return NOT_DISABLED;
          }
          now = new TableEntry(was.id(), was.descriptor(), was.regions(), true);
          tables.put(name, now);
        }
        default -> {
          if (was.enabled()) {
            return NOT_ENABLED;
          }
          now = null;
          tables.remove(name);
        }
      }
    }
    if (now == null) {
      effects.dropped(was); // it removes the replicas of the table's split parents and moves' sources too
      synchronized (this) {
        moves.values().removeIf(m -> m.tableId() == was.id());
        splits.values().removeIf(sp -> {
          boolean of = sp.tableId() == was.id();
          if (of) {
            retired.remove(sp.parent().group());
          }
          return of;
        });
      }
    } else if (!now.enabled()) {
      effects.disabled(now);
    }
    return DONE;
  }

  /**
   * Begins move {@code m}: the region's peers name {@code m.to()} in {@code m.from()}'s place, and
   * the move is kept until its end. Refused, with nothing changed: no such table or region ({@link
   * #NOT_FOUND}, {@link #NO_SUCH_REGION}), a move of the region under way ({@link #MOVE_PENDING}),
   * a {@code from} that is not a peer or a {@code to} that is ({@link #NOT_A_MOVE}).
   */
  private String beginMove(ReplicaMove m) {
    synchronized (this) {
      TableEntry t = tables.get(m.table());
      if (t == null || t.id() != m.tableId()) {
        return NOT_FOUND;
      }
      int index = indexOf(t, m.group());
      if (index < 0) {
        return NO_SUCH_REGION;
      }
      if (moves.containsKey(m.group())) {
        return MOVE_PENDING;
      }
      RegionEntry r = t.regions().get(index);
      if (!r.peers().contains(m.from()) || r.peers().contains(m.to())) {
        return NOT_A_MOVE;
      }
      List<String> peers = new ArrayList<>(r.peers());
      peers.set(peers.indexOf(m.from()), m.to());
      List<RegionEntry> regions = new ArrayList<>(t.regions());
      regions.set(index, new RegionEntry(r.id(), r.group(), r.base(), r.start(), r.end(), peers));
      tables.put(t.descriptor().name(), new TableEntry(t.id(), t.descriptor(), regions, t.enabled()));
      moves.put(m.group(), m);
    }
    effects.moving(m);
    return MOVING;
  }

  /** Ends move {@code m} ({@link #DONE}); {@link #NOT_FOUND} if it is not under way (ended, or its table dropped). */
  private String endMove(ReplicaMove m) {
    synchronized (this) {
      if (!m.equals(moves.get(m.group()))) {
        return NOT_FOUND;
      }
      moves.remove(m.group());
    }
    effects.moved(m);
    return DONE;
  }

  /** The move of region {@code group}'s replica under way, or null. */
  synchronized ReplicaMove moveOf(UUID group) {
    return moves.get(group);
  }

  /** The replica moves under way, in the order they began. */
  synchronized List<ReplicaMove> moves() {
    return new ArrayList<>(moves.values());
  }

  /** The table holding region {@code group} now, or null (no such region: dropped, split, never made). */
  synchronized TableEntry tableOf(UUID group) {
    for (TableEntry t : tables.values()) {
      if (indexOf(t, group) >= 0) {
        return t;
      }
    }
    return null;
  }

  private static int indexOf(TableEntry t, UUID group) {
    for (int i = 0; i < t.regions().size(); i++) {
      if (t.regions().get(i).group().equals(group)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Splits region {@code parent} of table {@code name} of id {@code id} at {@code key}: the table's
   * regions list the daughters in its place (the next two region ids, sequence bases {@link
   * #SPLIT_BASE_STEP} above the parent's, the parent's peers), and the split is kept by parent
   * group. A table or region that is not there (dropped, split already), or a key not strictly
   * inside the region, changes nothing and answers {@link #NO_SUCH_REGION} or {@link #NOT_FOUND}.
   */
  private String split(String name, int id, UUID parent, byte[] key, UUID a, UUID b) {
    TableEntry now;
    Split s;
    synchronized (this) {
      TableEntry was = tables.get(name);
      if (was == null || was.id() != id) {
        return NOT_FOUND;
      }
      int index = -1;
      for (int i = 0; i < was.regions().size(); i++) {
        if (was.regions().get(i).group().equals(parent)) {
          index = i;
        }
      }
      if (index < 0) {
        return NO_SUCH_REGION;
      }
      if (moves.containsKey(parent)) {
        return MOVE_PENDING;
      }
      RegionEntry p = was.regions().get(index);
      if (!inside(key, p)) {
        return NO_SUCH_REGION;
      }
      long base = p.base() + SPLIT_BASE_STEP;
      RegionEntry da = new RegionEntry(++regionIds, a, base, p.start(), key, p.peers());
      RegionEntry db = new RegionEntry(++regionIds, b, base, key, p.end(), p.peers());
      List<RegionEntry> regions = new ArrayList<>(was.regions());
      regions.set(index, db);
      regions.add(index, da);
      now = new TableEntry(was.id(), was.descriptor(), regions, was.enabled());
      s = new Split(was.id(), p, da, db);
      tables.put(name, now);
      splits.put(parent, s);
    }
    effects.split(now, s);
    return "split\t" + s.a().id() + "\t" + s.b().id();
  }

  /**
   * Retires the split parent in group {@code parent} of table {@code name} of id {@code id}: {@link
   * #DONE}, and the member removes its replica of it ({@link Effects#retired}); {@link #NOT_FOUND}
   * if the table or that split is not there, with nothing changed (retired twice: done again,
   * changing nothing).
   */
  private String retire(String name, int id, UUID parent) {
    Split s;
    synchronized (this) {
      TableEntry t = tables.get(name);
      s = splits.get(parent);
      if (t == null || t.id() != id || s == null || s.tableId() != id) {
        return NOT_FOUND;
      }
      if (!retired.add(parent)) {
        return DONE;
      }
    }
    effects.retired(s);
    return DONE;
  }

  /** Whether the split parent in group {@code parent} was retired. */
  synchronized boolean isRetired(UUID parent) {
    return retired.contains(parent);
  }

  /** Whether {@code key} lies strictly inside region {@code r}'s rows (not its first row). */
  static boolean inside(byte[] key, RegionEntry r) {
    return key.length > 0 && io.bellows.util.Bytes.compare(key, r.start()) > 0
        && (r.end().length == 0 || io.bellows.util.Bytes.compare(key, r.end()) < 0);
  }

  /** The split of the region in group {@code parent}, or null if meta applied none. */
  synchronized Split splitOf(UUID parent) {
    return splits.get(parent);
  }

  /** The splits of the table of id {@code tableId} applied so far, in log order. */
  synchronized List<Split> splitsOf(int tableId) {
    return splits.values().stream().filter(s -> s.tableId() == tableId).toList();
  }

  /** Every split applied so far, in log order. */
  synchronized List<Split> splits() {
    return new ArrayList<>(splits.values());
  }

  private byte[] create(LogPosition at, String text, String[] head, int nl) {
    List<String[]> regions = new ArrayList<>();
    int rest = nl + 1;
    switch (head[0]) {
      case "create-table" -> regions.add(new String[] {head[1], head[2], "", "", ""});
      case "create-table-regions" -> {
        int n = Integer.parseInt(head[1]);
        for (int i = 0; i < n; i++) {
          int end = text.indexOf('\n', rest);
          String[] f = text.substring(rest, end).split("\t", -1);
          if (f.length != 6 || !f[0].equals("region")) {
            throw new IllegalStateException("bad region line " + (i + 1) + " of the meta entry at " + at + ": "
                + text.substring(rest, end));
          }
          regions.add(new String[] {f[1], f[2], f[3], f[4], f[5]});
          rest = end + 1;
        }
      }
      default -> throw new IllegalStateException("unknown meta entry at " + at + ": " + head[0]);
    }
    TableDescriptor d = TableText.decode(text.substring(rest));
    TableEntry t;
    synchronized (this) {
      if (tables.containsKey(d.name())) {
        return EXISTS.getBytes(StandardCharsets.UTF_8);
      }
      List<RegionEntry> list = new ArrayList<>(regions.size());
      for (String[] r : regions) {
        List<String> peers = r[4].isEmpty() ? members : List.of(r[4].split(","));
        list.add(new RegionEntry(++regionIds, UUID.fromString(r[0]), Long.parseLong(r[1]), HEX.parseHex(r[2]),
            HEX.parseHex(r[3]), peers));
      }
      t = new TableEntry(tableIds + 1, d, list);
      t.ranges(); // the keys must be in order
      tableIds++;
      tables.put(d.name(), t);
    }
    effects.opened(t);
    return Integer.toString(t.id()).getBytes(StandardCharsets.UTF_8);
  }

  synchronized TableEntry table(String name) {
    return tables.get(name);
  }

  synchronized List<TableEntry> tables() {
    return new ArrayList<>(tables.values());
  }

  /** Meta is never checkpointed: a member added to its group replays its whole log. */
  @Override
  public boolean keepsWholeLog() {
    return true;
  }

  /** Reads are answered from the applied catalog by the callers; a read through the log only waits for it. */
  @Override
  public byte[] query(byte[] request) {
    return new byte[0];
  }

  static String hex(byte[] key) {
    return HEX.formatHex(key);
  }

  static byte[] unhex(String text) {
    return HEX.parseHex(text);
  }
}
