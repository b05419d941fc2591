package io.bellows.cluster.server;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a new region's replicas go: on the {@code replication} members that hold the fewest
 * replicas, counting the regions placed before it in the same call (so a table's regions spread
 * over the members). Ties go by the members' order rotated by the region's position, so that
 * equal members take turns. Every member when there are no more members than the replication.
 */
final class Placement {
  private Placement() {}

  /**
   * The peers of {@code regions} new regions, each a list of {@code min(replication, members)}
   * member ids in the members' order, given {@code held}: how many replicas each member holds now
   * (absent: none).
   */
  static List<List<String>> place(List<String> members, int replication, Map<String, Integer> held, int regions) {
    if (replication < 1) {
      throw new IllegalArgumentException("the replication must be at least 1, not " + replication);
    }
    int n = Math.min(replication, members.size());
    Map<String, Integer> count = new HashMap<>(held);
    List<List<String>> out = new ArrayList<>(regions);
    for (int r = 0; r < regions; r++) {
      int turn = r;
      List<String> order = new ArrayList<>(members.size());
      for (int i = 0; i < members.size(); i++) {
        order.add(members.get((i + turn) % members.size()));
      }
      order.sort(Comparator.comparingInt(m -> count.getOrDefault(m, 0))); // stable: the rotation breaks ties
      List<String> chosen = order.subList(0, n);
      List<String> peers = members.stream().filter(chosen::contains).toList();
      peers.forEach(m -> count.merge(m, 1, Integer::sum));
      out.add(peers);
    }
    return out;
  }

  /** How many replicas each member holds in {@code catalog}'s regions (split parents not counted). */
  static Map<String, Integer> held(MetaCatalog catalog) {
    Map<String, Integer> held = new HashMap<>();
    for (MetaCatalog.TableEntry t : catalog.tables()) {
      for (MetaCatalog.RegionEntry r : t.regions()) {
        r.peers().forEach(p -> held.merge(p, 1, Integer::sum));
      }
    }
    return held;
  }
}
