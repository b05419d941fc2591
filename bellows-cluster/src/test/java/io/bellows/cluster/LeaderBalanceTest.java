package io.bellows.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The plan of a leader-balancing pass: moves that leave the members at most one group apart, where peers allow. */
@ExtendWith(SeedExtension.class)
class LeaderBalanceTest {
  private static final List<String> THREE = List.of("n1", "n2", "n3");

  private static List<LeaderBalance.Group> groups(int n, List<String> peers, String leader) {
    List<LeaderBalance.Group> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new LeaderBalance.Group(new UUID(0, i), peers, leader));
    }
    return out;
  }

  private static Map<String, Integer> after(List<LeaderBalance.Group> groups, List<LeaderBalance.Move> moves) {
    Map<UUID, String> leaders = new HashMap<>();
    groups.forEach(g -> leaders.put(g.id(), g.leader()));
    for (LeaderBalance.Move m : moves) {
      assertThat(leaders.get(m.group())).as("a move starts from the group's leader of the moment").isEqualTo(m.from());
      leaders.put(m.group(), m.to());
    }
    Map<String, Integer> led = new HashMap<>();
    leaders.values().forEach(l -> led.merge(l, 1, Integer::sum));
    return led;
  }

  @Test
  void nineGroupsLedByOneMemberEndThreeEach() {
    List<LeaderBalance.Group> g = groups(9, THREE, "n1");
    List<LeaderBalance.Move> moves = LeaderBalance.plan(g, Set.copyOf(THREE), 100);
    assertThat(moves).hasSize(6);
    assertThat(after(g, moves)).containsExactlyInAnyOrderEntriesOf(Map.of("n1", 3, "n2", 3, "n3", 3));
  }

  @Test
  void aBalancedClusterMovesNothing() {
    List<LeaderBalance.Group> g = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      g.add(new LeaderBalance.Group(new UUID(0, i), THREE, THREE.get(i % 3)));
    }
    assertThat(LeaderBalance.plan(g, Set.copyOf(THREE), 100)).isEmpty();
  }

  @Test
  void aMemberThatIsDownIsGivenNothingAndAGroupWithoutALeaderIsLeftAlone() {
    List<LeaderBalance.Group> g = new ArrayList<>(groups(4, THREE, "n1"));
    g.add(new LeaderBalance.Group(new UUID(1, 0), THREE, null));
    List<LeaderBalance.Move> moves = LeaderBalance.plan(g, Set.of("n1", "n2"), 100);
    assertThat(moves).allSatisfy(m -> assertThat(m.to()).isEqualTo("n2"));
    assertThat(moves).noneMatch(m -> m.group().equals(new UUID(1, 0)));
    assertThat(after(g.subList(0, 4), moves)).containsExactlyInAnyOrderEntriesOf(Map.of("n1", 2, "n2", 2));
  }

  @Test
  void aPassMovesAtMostItsShare() {
    assertThat(LeaderBalance.plan(groups(30, THREE, "n3"), Set.copyOf(THREE), 4)).hasSize(4);
  }

  @Test
  void randomClustersEndWithNoMoveLeftAndEveryMoveToALivePeerThatLedTwoFewer(Seed seed) {
    Random rnd = seed.random();
    for (int round = 0; round < 500; round++) {
      int members = 3 + rnd.nextInt(5);
      List<String> all = new ArrayList<>();
      for (int i = 1; i <= members; i++) {
        all.add("n" + i);
      }
      Set<String> live = new TreeSet<>();
      for (String m : all) {
        if (rnd.nextInt(6) > 0) {
          live.add(m);
        }
      }
      List<LeaderBalance.Group> g = new ArrayList<>();
      int n = rnd.nextInt(40);
      for (int i = 0; i < n; i++) {
        List<String> peers = new ArrayList<>(all);
        java.util.Collections.shuffle(peers, rnd);
        peers = peers.subList(0, Math.min(peers.size(), 3));
        List<String> livePeers = peers.stream().filter(live::contains).toList();
        String leader = livePeers.isEmpty() || rnd.nextInt(10) == 0 ? null
            : rnd.nextInt(3) == 0 ? livePeers.get(0) : livePeers.get(rnd.nextInt(livePeers.size()));
        g.add(new LeaderBalance.Group(new UUID(round, i), peers, leader));
      }
      List<LeaderBalance.Move> moves = LeaderBalance.plan(g, live, Integer.MAX_VALUE);
      // Each move: to a live peer of the group that led at least two fewer than the giver.
      Map<UUID, LeaderBalance.Group> byId = new HashMap<>();
      g.forEach(x -> byId.put(x.id(), x));
      Map<UUID, String> leaders = new HashMap<>();
      Map<String, Integer> led = new HashMap<>();
      for (LeaderBalance.Group x : g) {
        if (x.leader() != null) {
          leaders.put(x.id(), x.leader());
          led.merge(x.leader(), 1, Integer::sum);
        }
      }
      for (LeaderBalance.Move m : moves) {
        String where = seed + ", round " + round + ", " + m;
        assertThat(leaders.get(m.group())).as(where).isEqualTo(m.from());
        assertThat(byId.get(m.group()).peers()).as(where).contains(m.to());
        assertThat(live).as(where).contains(m.to());
        assertThat(led.getOrDefault(m.to(), 0)).as(where).isLessThanOrEqualTo(led.get(m.from()) - 2);
        leaders.put(m.group(), m.to());
        led.merge(m.from(), -1, Integer::sum);
        led.merge(m.to(), 1, Integer::sum);
      }
      // And none is left: no group's leader has a live peer leading two fewer.
      for (Map.Entry<UUID, String> e : leaders.entrySet()) {
        for (String p : byId.get(e.getKey()).peers()) {
          if (!p.equals(e.getValue()) && live.contains(p)) {
            assertThat(led.getOrDefault(p, 0)).as("%s, round %d: %s could still give %s to %s", seed, round,
                e.getValue(), e.getKey(), p).isGreaterThan(led.get(e.getValue()) - 2);
          }
        }
      }
    }
  }
}
