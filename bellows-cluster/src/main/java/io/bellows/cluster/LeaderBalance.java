package io.bellows.cluster;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Which leaderships to hand over so that the members lead about as many groups each: the plan of a
 * balancing pass ({@link RaftNode#balanceLeaders}). A leader does a group's evaluation, its log's
 * sends to the followers and its reads, so a member that leads most groups does most of the work
 * while the others idle (after a restart, every group the restarted member led is led elsewhere).
 *
 * <p>A move goes from a member that leads the most groups to a live member of the group's peers
 * that leads at least two fewer, the one that leads fewest; moves are planned until no such pair is
 * left or {@code maxMoves} are planned. So the pass ends with every two live members at most one
 * group apart wherever the groups' peers allow it, and it never moves a leadership to a member that
 * would then lead more than the one that gave it up (no move undoes another). Deterministic: ties go
 * to the lower member id and the lower group id.
 */
public final class LeaderBalance {
  /** A group, its peers' ids, and the leader known now (null: none known; the group is left alone). */
  public record Group(UUID id, List<String> peers, String leader) {}

  /** Hand the leadership of {@code group} from {@code from} to {@code to}. */
  public record Move(UUID group, String from, String to) {}

  private LeaderBalance() {}

  /** The moves, in order, among {@code live} members (a leader always counts as live). */
  public static List<Move> plan(List<Group> groups, Set<String> live, int maxMoves) {
    Map<String, Integer> led = new TreeMap<>();
    for (String m : live) {
      led.put(m, 0);
    }
    Map<UUID, String> leaders = new TreeMap<>();
    Map<UUID, Group> byId = new TreeMap<>();
    for (Group g : groups) {
      if (g.leader() != null) {
        led.merge(g.leader(), 1, Integer::sum);
        leaders.put(g.id(), g.leader());
        byId.put(g.id(), g);
      }
    }
    List<Move> moves = new ArrayList<>();
    while (moves.size() < maxMoves) {
      Move next = nextMove(byId, leaders, led, live);
      if (next == null) {
        break;
      }
      moves.add(next);
      leaders.put(next.group(), next.to());
      led.merge(next.from(), -1, Integer::sum);
      led.merge(next.to(), 1, Integer::sum);
    }
    return moves;
  }

  /** From the most loaded donor that can give: its lowest group with a peer leading at least two fewer. */
  private static Move nextMove(Map<UUID, Group> groups, Map<UUID, String> leaders, Map<String, Integer> led,
      Set<String> live) {
    List<String> donors = new ArrayList<>(led.keySet());
    donors.sort(Comparator.comparing((String m) -> -led.get(m)).thenComparing(m -> m));
    for (String donor : donors) {
      int most = led.get(donor);
      for (Map.Entry<UUID, String> e : leaders.entrySet()) {
        if (!e.getValue().equals(donor)) {
          continue;
        }
        String to = null;
        for (String p : groups.get(e.getKey()).peers()) {
          if (p.equals(donor) || !live.contains(p) || led.getOrDefault(p, 0) > most - 2) {
            continue;
          }
          if (to == null || led.getOrDefault(p, 0) < led.getOrDefault(to, 0)
              || (led.getOrDefault(p, 0).equals(led.getOrDefault(to, 0)) && p.compareTo(to) < 0)) {
            to = p;
          }
        }
        if (to != null) {
          return new Move(e.getKey(), donor, to);
        }
      }
    }
    return null;
  }
}
