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
}
