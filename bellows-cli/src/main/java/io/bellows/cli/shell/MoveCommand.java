package io.bellows.cli.shell;

import io.bellows.engine.ClusterStatus;
import io.bellows.engine.LeaderMove;
import io.bellows.engine.RegionInfo;
import java.util.List;

/**
 * {@code move 'REGION' [, 'SERVER']}: HBase's move of a region to a server, over a cluster: the
 * region's leadership is handed to the member SERVER (Raft's leadership transfer), which first gets
 * a replica of the region if it holds none (the replica moves there), or without SERVER to the
 * member of its replicas that leads fewest regions (HBase picks a random server). REGION is the
 * REGION_ID that {@code list_regions} prints (Bellows' regions have no HBase encoded name); SERVER
 * the member's id, its client address (host:port), the SERVER_NAME that {@code list_regions} prints
 * ("id host:port"), or HBase's "host,port,startcode". Prints who led and who leads now; an engine
 * that is not a cluster is refused.
 */
public record MoveCommand(String region, String server) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    ClusterStatus c = ctx.engine().clusterStatus().orElseThrow(() -> new ShellException(
        "move: this engine is not a cluster: a single server leads every region itself, so there is nothing to move"));
    int id;
    try {
      id = Integer.parseInt(region.strip());
    } catch (NumberFormatException e) {
      throw new ShellException("move: name the region by the REGION_ID that list_regions prints, not '" + region + "'");
    }
    String table = null;
    RegionInfo found = null;
    for (String t : ctx.engine().listTables()) {
      for (RegionInfo r : ctx.engine().regions(t)) {
        if (r.id() == id) {
          table = t;
          found = r;
        }
      }
    }
    if (found == null) {
      throw new ShellException("move: no region " + id + " in any table (list_regions 't' lists a table's regions)");
    }
    String member = server == null ? null : member(c, server);
    LeaderMove m = ctx.engine().moveLeader(table, found.startKey(), member);
    ctx.printer().line(m.moved()
        ? "Moved the leadership of region " + id + " of table '" + table + "' from " + m.from() + " to " + m.to()
        : "Region " + id + " of table '" + table + "' is led by " + m.to() + " already: nothing moved");
  }

  /** The id of the member {@code name} names (id, address, "id address" or "host,port,startcode"). */
  static String member(ClusterStatus c, String name) {
    String n = name.strip();
    String[] hbase = n.split(",");
    String hostPort = hbase.length == 3 ? hbase[0] + ":" + hbase[1] : null;
    for (ClusterStatus.Member m : c.members()) {
      if (n.equals(m.id()) || n.equals(m.address()) || n.equals(m.id() + " " + m.address())
          || m.address().equals(hostPort) || (hbase.length == 3 && hbase[0].equals(m.id()))) {
        return m.id();
      }
    }
    List<String> known = c.members().stream().map(m -> m.id() + " " + m.address()).toList();
    throw new ShellException("move: no member '" + name + "' in the cluster (members: " + String.join(", ", known) + ")");
  }
}
