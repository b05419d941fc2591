package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** The key choosers of bench read's workloads. */
class ReadWorkloadTest {
  private static final long SEED = Long.getLong("bellows.test.seed", 42);

  /** Share of {@code draws} items that fall among the first {@code first} items in key order. */
  private static double shareOfFirst(ReadWorkload w, long rows, long first, int draws) {
    LongSupplier items = w.items(rows, SEED);
    int hits = 0;
    for (int i = 0; i < draws; i++) {
      long item = items.getAsLong();
      assertThat(item).isBetween(0L, rows - 1);
      if (item < first) {
        hits++;
      }
    }
    return (double) hits / draws;
  }

  @Test
  void orderedZipfPutsTheHottestRowsFirstInKeyOrderAndScrambledZipfDoesNot() {
    System.out.println("seed " + SEED);
    long rows = 1_000_000;
    // Under Zipf θ 0.99 over 1M items, the 100 most popular take about a third of the draws.
    double ordered = shareOfFirst(ReadWorkload.B_ZIPF_ORDERED, rows, 100, 100_000);
    double scrambled = shareOfFirst(ReadWorkload.B_ZIPF, rows, 100, 100_000);
    assertThat(ordered).as("ordered: the first 100 rows in key order").isGreaterThan(0.25);
    assertThat(scrambled).as("scrambled: the first 100 rows are no hotter than any others").isLessThan(0.01);
  }

  @Test
  void hotDrawsEveryFourthRowOfTheFirstTenthEvenly() {
    System.out.println("seed " + SEED);
    long rows = 1_000_000;
    long hot = (long) (rows * ReadWorkload.HOT_SHARE);
    int[] draws = new int[(int) hot];
    LongSupplier items = ReadWorkload.C_HOT.items(rows, SEED);
    int n = 2_000_000;
    for (int i = 0; i < n; i++) {
      long item = items.getAsLong();
      assertThat(item % ReadWorkload.HOT_STRIDE).as("item %d", item).isZero();
      assertThat(item).isLessThan(rows / 10);
      draws[(int) (item / ReadWorkload.HOT_STRIDE)]++;
    }
    // 80 draws per hot row on average: every one is drawn, none more than twice the mean.
    assertThat(java.util.Arrays.stream(draws).min().getAsInt()).isPositive();
    assertThat(java.util.Arrays.stream(draws).max().getAsInt()).isLessThan(2 * n / draws.length);
  }
}
