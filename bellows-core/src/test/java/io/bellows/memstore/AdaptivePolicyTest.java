package io.bellows.memstore;

import static io.bellows.memstore.MemStoreFixtures.cell;
import static io.bellows.memstore.MemStoreFixtures.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.config.MemStorePolicy;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** ADAPTIVE's merge-or-compact decisions on crafted data, and its throttle. */
class AdaptivePolicyTest {
  private final MemStoreFixtures.ManualExecutor bg = new MemStoreFixtures.ManualExecutor();
  private final AtomicInteger draws = new AtomicInteger();

  private CompactingMemStore store(double random) {
    MemStoreContext ctx = MemStoreFixtures.context(MemStoreFixtures.family(MemStorePolicy.ADAPTIVE, 0.05, 2, 0.2),
        20_000, bg, MemStoreFixtures::newestOnly, MemStoreContext.Listener.NONE);
    return new CompactingMemStore(ctx, () -> {
      draws.incrementAndGet();
      return random;
    });
  }

  @Test
  void allUniqueDataNeverCompactsAndNeverDraws() {
    CompactingMemStore ms = store(0.0); // a draw would always say "compact"
    for (int i = 0; i < 2000; i++) {
      ms.add(cell(String.format("row%06d", i), "q", 1, i + 1));
      bg.runAll();
    }
    assertThat(ms.metrics().get("memstore.merges").longValue()).isPositive();
    assertThat(ms.metrics().get("memstore.compactions").longValue()).isZero();
    assertThat(ms.metrics().get("memstore.adaptive.uniqueness").doubleValue()).isEqualTo(1.0);
    assertThat(draws.get()).isZero();
    assertThat(readAll(ms.scanners())).hasSize(2000);
  }

  @Test
  void redundantDataCompactsWhenTheThrottleAllows() {
    CompactingMemStore ms = store(0.0);
    for (int i = 0; i < 2000; i++) {
      ms.add(cell("row" + (i % 3), "q", 1, i + 1)); // three columns, many versions
      bg.runAll();
    }
    assertThat(ms.metrics().get("memstore.compactions").longValue()).isPositive();
    assertThat(ms.metrics().get("memstore.cells.eliminated").longValue()).isPositive();
    assertThat(ms.metrics().get("memstore.adaptive.uniqueness").doubleValue()).isLessThan(0.8);
    assertThat(readAll(ms.scanners()).size()).isLessThan(2000);
  }

  @Test
  void redundantDataMergesWhenTheThrottleSaysNo() {
    CompactingMemStore ms = store(1.0); // never below the throttle, which is capped at 1
    for (int i = 0; i < 2000; i++) {
      ms.add(cell("row" + (i % 3), "q", 1, i + 1));
      bg.runAll();
    }
    assertThat(draws.get()).isPositive();
    assertThat(ms.metrics().get("memstore.compactions").longValue()).isZero();
    assertThat(ms.metrics().get("memstore.merges").longValue()).isPositive();
    assertThat(readAll(ms.scanners())).hasSize(2000);
  }

  @Test
  void throttleGrowsTwoPercentPerInMemoryFlushAndResetsOnDiskFlush() {
    AdaptivePolicy p = new AdaptivePolicy(0.2, () -> 0.6);
    p.observeUniqueness(0.1);
    assertThat(p.shouldCompact()).isFalse(); // 0.6 >= t = 0.5
    for (int i = 0; i < 10; i++) {
      p.onInMemoryFlush();
    }
    assertThat(p.throttle()).isCloseTo(0.5 * Math.pow(1.02, 10), org.assertj.core.data.Offset.offset(1e-12));
    assertThat(p.shouldCompact()).isTrue(); // t ~ 0.609 > 0.6
    p.onDiskFlush();
    assertThat(p.throttle()).isEqualTo(0.5);
    for (int i = 0; i < 1000; i++) {
      p.onInMemoryFlush();
    }
    assertThat(p.throttle()).isEqualTo(1.0);
  }

  @Test
  void stepsMergeTheMostAlikeAdjacentPair() {
    assertThat(CompactingMemStore.mostAlikeAdjacentPair(new long[] {1, 1, 2, 4, 8})).isZero();
    assertThat(CompactingMemStore.mostAlikeAdjacentPair(new long[] {1, 5, 8, 8, 30})).isEqualTo(2);
    assertThat(CompactingMemStore.mostAlikeAdjacentPair(new long[] {2, 4, 1, 2})).as("equal ratios: the smaller pair")
        .isEqualTo(2);
    assertThat(CompactingMemStore.mostAlikeAdjacentPair(new long[] {0, 0})).isZero();
  }

  /**
   * The cost the choice exists for: new unit segments arriving one at a time into a pipeline held at
   * {@code S} segments, the rewrites per unit stay near those of a binary counter rather than growing
   * with the number of arrivals as folding every new segment into the smallest pair does.
   */
  @Test
  void alikeMergesRewriteEachCellFewTimes() {
    for (int n : new int[] {75, 150}) {
      assertThat(rewritesPerUnit(n, 5, true)).as("alike, %d arrivals", n).isLessThan(7.0);
      assertThat(rewritesPerUnit(n, 5, true)).isLessThan(0.8 * rewritesPerUnit(n, 5, false));
    }
  }

  private static double rewritesPerUnit(int arrivals, int maxSegments, boolean alike) {
    java.util.List<Long> p = new java.util.ArrayList<>();
    long rewritten = 0;
    for (int i = 0; i < arrivals; i++) {
      p.add(0, 1L);
      while (p.size() > maxSegments) {
        long[] f = p.stream().mapToLong(Long::longValue).toArray();
        int j = alike ? CompactingMemStore.mostAlikeAdjacentPair(f) : smallestPair(f);
        long merged = f[j] + f[j + 1];
        rewritten += merged;
        p.set(j, merged);
        p.remove(j + 1);
      }
    }
    return (double) rewritten / arrivals;
  }

  private static int smallestPair(long[] f) {
    int best = 0;
    for (int i = 1; i + 1 < f.length; i++) {
      if (f[i] + f[i + 1] < f[best] + f[best + 1]) {
        best = i;
      }
    }
    return best;
  }
}
