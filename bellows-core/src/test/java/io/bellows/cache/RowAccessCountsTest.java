package io.bellows.cache;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The promotion test of the SAC 2024 paper §4.1 (its Figure 7's cases), on one block's rows. */
class RowAccessCountsTest {
  private static final int MIN = 3;

  private static RowAccessCounts block(int rows) {
    return new RowAccessCounts(() -> rows);
  }

  @Test
  void aRowReadFarMoreThanItsNeighboursIsPromotedAndStartsAgain() {
    RowAccessCounts c = block(8);
    c.recordAndTestPromotion(0, MIN);
    c.recordAndTestPromotion(700, MIN);
    boolean promoted = false;
    int reads = 0;
    while (!promoted) {
      promoted = c.recordAndTestPromotion(300, MIN);
      reads++;
    }
    assertThat(reads).isEqualTo(MIN + 1); // the first count over the minimum, far above mean + sd
    assertThat(c.count(300)).isZero();
    assertThat(c.count(0)).isEqualTo(1);
  }

  @Test
  void aRowIsNotPromotedBeforeItPassesTheMinimum() {
    RowAccessCounts cold = block(8);
    for (int i = 0; i < MIN; i++) {
      assertThat(cold.recordAndTestPromotion(500, MIN)).as("count %s is not over the minimum", i + 1).isFalse();
    }
  }

  @Test
  void aBlockOfOneRowNeverPromotesIt() {
    RowAccessCounts one = block(1);
    for (int i = 0; i < 100; i++) {
      assertThat(one.recordAndTestPromotion(0, MIN)).isFalse(); // the row is the whole block: well used
    }
  }

  @Test
  void theBlocksRowsAreCountedOnlyOnceACountPassesTheMinimum() {
    int[] walks = {0};
    RowAccessCounts c = new RowAccessCounts(() -> {
      walks[0]++;
      return 8;
    });
    for (int row = 0; row < 8; row++) {
      for (int i = 0; i < MIN; i++) {
        c.recordAndTestPromotion(row * 100, MIN);
      }
    }
    assertThat(walks[0]).as("walks of the block while every count is at most the minimum").isZero();
    assertThat(c.recordAndTestPromotion(300, MIN)).as("4 reads over a mean of 3.1 + sd 0.3").isTrue();
    assertThat(walks[0]).isEqualTo(1);
    for (int row = 0; row < 64; row++) { // many rows: the map grows and keeps every count
      c.recordAndTestPromotion(10_000 + row, MIN);
    }
    assertThat(c.count(0)).isEqualTo(MIN);
    assertThat(c.count(10_063)).isEqualTo(1);
    assertThat(c.count(300)).isZero();
  }
}
