package io.bellows.cli.shell;

import io.bellows.engine.ClusterStatus;
import io.bellows.engine.Engine;
import io.bellows.engine.RegionInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code status}: HBase's summary line, adapted honestly to one engine — one active "master" and
 * one server (the engine), none dead, the average load being its online regions — then what
 * Bellows can say of that engine in HBase's {@code key=value} style: tables, online regions (of
 * enabled tables), sorted files and their bytes, memory-store bytes, the memory-store limit and
 * used heap when the engine reports them, and its background error. Over {@code --connect} these
 * are the server's numbers.
 *
 * <p>Over a cluster ({@code --connect} to its members): the active master is the member that leads
 * the meta group and the backup masters the other members that answered; servers are the members
 * that answered, dead the others; the average load is the replicas of tables per live server; the
 * numbers are those of each table's leader; and a last line names meta's leader. {@code status
 * 'simple'} prints HBase's layout of that: the active and backup masters, each live server with its
 * replicas (the group, Raft's role, term, applied log index and lag behind the leader), the dead
 * servers.
 */
public record StatusCommand(boolean simple) implements Command {
  /** The summary. */
  public StatusCommand() {
    this(false);
  }

  @Override
  public void execute(ShellContext ctx) {
    Engine engine = ctx.engine();
    Optional<ClusterStatus> cluster = engine.clusterStatus();
    if (simple) {
      ClusterStatus c = cluster.orElseThrow(() -> new ShellException("status 'simple' describes a cluster's servers;"
          + " this engine is not a cluster member: use status 'summary'"));
      printSimple(ctx.printer(), c);
      return;
    }
    int tables = 0;
    int disabled = 0;
    long regions = 0;
    long files = 0;
    long fileBytes = 0;
    long memBytes = 0;
    for (String t : engine.listTables()) {
      tables++;
      if (!engine.isTableEnabled(t)) {
        disabled++; // its regions are closed: not online, as in HBase
        continue;
      }
      for (RegionInfo r : engine.regions(t)) {
        regions++;
        files += r.storeFiles();
        fileBytes += r.storeFileBytes();
        memBytes += r.memStoreBytes();
      }
    }
    TablePrinter p = ctx.printer();
    if (cluster.isPresent()) {
      ClusterStatus c = cluster.get();
      long live = c.members().stream().filter(ClusterStatus.Member::reported).count();
      int active = activeMaster(c).isPresent() ? 1 : 0;
      long tableReplicas = c.replicas().stream().filter(r -> !r.isMeta()).count();
      p.line(String.format(Locale.ROOT, "%d active master, %d backup masters, %d servers, %d dead, %.4f average load",
          active, live - active, live, c.members().size() - live, live == 0 ? 0.0 : (double) tableReplicas / live));
    } else {
      p.line(String.format(Locale.ROOT, "1 active master, 0 backup masters, 1 servers, 0 dead, %.4f average load",
          (double) regions));
    }
    Map<String, Number> m = engine.metrics();
    p.line("numberOfTables=" + tables + " (" + disabled + " disabled), numberOfOnlineRegions=" + regions
        + ", numberOfStorefiles=" + files + ", storefileSizeBytes=" + fileBytes + ", memstoreSizeBytes=" + memBytes
        + metric(m, "memstore.global.limit.bytes", "memstoreLimitBytes") + metric(m, "jvm.heap.used", "usedHeapBytes"));
    p.line("background error: " + engine.backgroundError().map(BackgroundErrorCommand::describe).orElse("none"));
    cluster.ifPresent(c -> p.line("meta leader: " + activeMaster(c).map(r -> member(c, r.member()) + ", term " + r.term())
        .orElse("none (an election is under way, or its leader did not answer)")));
  }

  /** The replica that leads meta, if it answered. */
  private static Optional<ClusterStatus.Replica> activeMaster(ClusterStatus c) {
    return c.leaderOf(null);
  }

  /** HBase's {@code status 'simple'} layout, with a member's replicas under it. */
  private static void printSimple(TablePrinter p, ClusterStatus c) {
    Optional<ClusterStatus.Replica> master = activeMaster(c);
    p.line("active master: " + master.map(r -> member(c, r.member()) + " (meta's leader, term " + r.term() + ")")
        .orElse("none (an election is under way, or meta's leader did not answer)"));
    List<ClusterStatus.Member> live = c.members().stream().filter(ClusterStatus.Member::reported).toList();
    List<ClusterStatus.Member> backups = new ArrayList<>(live);
    master.ifPresent(r -> backups.removeIf(m -> m.id().equals(r.member())));
    p.line(backups.size() + " backup masters");
    backups.forEach(m -> p.line("    " + m.id() + " " + m.address()));
    p.line(live.size() + " live servers");
    for (ClusterStatus.Member m : live) {
      p.line("    " + m.id() + " " + m.address());
      List<ClusterStatus.Replica> mine = c.replicas().stream().filter(r -> r.member().equals(m.id())).toList();
      long regions = mine.stream().filter(r -> !r.isMeta()).count();
      long leaders = mine.stream().filter(r -> !r.isMeta() && r.leads()).count();
      long fileBytes = mine.stream().mapToLong(ClusterStatus.Replica::storeFileBytes).sum();
      long memBytes = mine.stream().mapToLong(ClusterStatus.Replica::memStoreBytes).sum();
      p.line("        numberOfOnlineRegions=" + regions + ", numberOfLeaders=" + leaders + ", storefileSizeBytes="
          + fileBytes + ", memstoreSizeBytes=" + memBytes);
      for (ClusterStatus.Replica r : mine) {
        p.line("        " + (r.isMeta() ? "meta" : r.table() + (severalRegions(c, r.table()) ? " region " + r.regionId() : ""))
            + ": " + replicaState(c, r));
      }
    }
    List<ClusterStatus.Member> dead = c.members().stream().filter(m -> !m.reported()).toList();
    p.line(dead.size() + " dead servers");
    dead.forEach(m -> p.line("    " + m.id() + " " + m.address()));
  }

  /** Whether the members reported replicas of more than one region of the table (its lines then name the region). */
  private static boolean severalRegions(ClusterStatus c, String table) {
    return c.replicasOf(table).stream().mapToInt(ClusterStatus.Replica::regionId).distinct().count() > 1;
  }

  /** A replica's role, term, applied index and, for one that does not lead, its lag behind the leader. */
  static String replicaState(ClusterStatus c, ClusterStatus.Replica r) {
    String s = r.role() + ", term " + r.term() + ", applied " + r.appliedIndex();
    if (!r.leads()) {
      s += c.lag(r).map(l -> ", lag " + l).orElse(", lag unknown (no leader answered)");
    }
    return s;
  }

  /** A member as "id host:port". */
  static String member(ClusterStatus c, String id) {
    return c.member(id).map(m -> m.id() + " " + m.address()).orElse(id);
  }

  private static String metric(Map<String, Number> m, String name, String label) {
    Number v = m.get(name);
    return v == null ? "" : ", " + label + "=" + v;
  }
}
