package io.bellows.cluster.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Where new regions' replicas go: on as many members as the replication asks (all when there are
 * fewer), each member at most once per region, on the members holding fewest replicas, so that
 * the counts of any two members end at most one apart when they started equal, and a member that
 * holds fewer takes the new ones first.
 */
class PlacementTest {
  private static final List<String> FOUR = List.of("m1", "m2", "m3", "m4");

  @Test
  void threeMembersOrFewerHoldEveryRegion() {
    assertThat(Placement.place(List.of("a", "b", "c"), 3, Map.of(), 2))
        .containsExactly(List.of("a", "b", "c"), List.of("a", "b", "c"));
    assertThat(Placement.place(List.of("a", "b"), 3, Map.of(), 1)).containsExactly(List.of("a", "b"));
    assertThatThrownBy(() -> Placement.place(FOUR, 0, Map.of(), 1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void regionsSpreadOverTheMembersAndTheLeastLoadedGoFirst() {
    List<List<String>> placed = Placement.place(FOUR, 3, Map.of(), 4);
    Map<String, Integer> count = new HashMap<>();
    placed.forEach(p -> p.forEach(m -> count.merge(m, 1, Integer::sum)));
    assertThat(count).containsOnlyKeys(FOUR).allSatisfy((m, n) -> assertThat(n).as(m).isEqualTo(3));
    assertThat(placed).allSatisfy(p -> assertThat(p).hasSize(3).doesNotHaveDuplicates());

    // m4 holds none: every new region takes it first.
    assertThat(Placement.place(FOUR, 3, Map.of("m1", 5, "m2", 5, "m3", 5), 2))
        .allSatisfy(p -> assertThat(p).contains("m4"));
  }

  @Test
  void anyNumberOfRegionsEndsWithinOneOfEven() {
    long seed = new Random().nextLong();
    System.out.println("PlacementTest seed " + seed + " (replay: set it here)");
    Random random = new Random(seed);
    for (int round = 0; round < 200; round++) {
      int members = 1 + random.nextInt(8);
      List<String> ids = java.util.stream.IntStream.rangeClosed(1, members).mapToObj(i -> "m" + i).toList();
      int replication = 1 + random.nextInt(5);
      Map<String, Integer> count = new HashMap<>();
      for (int call = 0; call < 1 + random.nextInt(5); call++) {
        for (List<String> p : Placement.place(ids, replication, count, 1 + random.nextInt(10))) {
          assertThat(p).hasSize(Math.min(replication, members)).doesNotHaveDuplicates();
          p.forEach(m -> count.merge(m, 1, Integer::sum));
        }
      }
      int max = ids.stream().mapToInt(m -> count.getOrDefault(m, 0)).max().orElse(0);
      int min = ids.stream().mapToInt(m -> count.getOrDefault(m, 0)).min().orElse(0);
      assertThat(max - min).as("seed %d round %d: %s", seed, round, count).isLessThanOrEqualTo(1);
    }
  }
}
