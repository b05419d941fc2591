package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The engine-wide memory budget: marks, cached measurement, which regions to flush. */
class MemoryBudgetTest {
  @Test
  void marksFollowTheLimit() {
    MemoryBudget b = new MemoryBudget(1000, 0.95, () -> 0, 0);
    assertThat(b.lowerMark()).isEqualTo(950);
    assertThat(b.aboveLowerMark(950)).isFalse();
    assertThat(b.aboveLowerMark(951)).isTrue();
    assertThat(b.atLimit(999)).isFalse();
    assertThat(b.atLimit(1000)).isTrue();
    assertThat(b.pacingPosition(975)).isEqualTo(0.5);
  }

  @Test
  void useIsMeasuredAgainOnlyWhenStale() {
    AtomicLong measured = new AtomicLong();
    AtomicLong value = new AtomicLong(10);
    MemoryBudget b = new MemoryBudget(1000, 0.9, () -> {
      measured.incrementAndGet();
      return value.get();
    }, 1_000_000);
    assertThat(b.use(0)).isEqualTo(10);
    value.set(20);
    assertThat(b.use(999_999)).as("fresh enough").isEqualTo(10);
    assertThat(b.use(1_000_000)).isEqualTo(20);
    value.set(5);
    assertThat(b.remeasure(1_000_001)).isEqualTo(5);
    assertThat(measured.get()).isEqualTo(3);
  }

  @Test
  void theLargestRegionsAreFlushedUntilTheExcessIsCovered() {
    MemoryBudget b = new MemoryBudget(1000, 0.5, () -> 0, 0);
    Map<String, Long> regions = new LinkedHashMap<>();
    regions.put("small", 100L);
    regions.put("large", 400L);
    regions.put("medium", 300L);
    regions.put("empty", 0L);
    assertThat(b.toFlush(regions, 800)).containsExactly("large"); // excess 300
    assertThat(b.toFlush(regions, 900)).containsExactly("large"); // excess 400, covered exactly
    assertThat(b.toFlush(regions, 950)).containsExactly("large", "medium"); // excess 450
    assertThat(b.toFlush(regions, 500)).isEmpty();
  }
}
