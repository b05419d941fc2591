package io.bellows.cache;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The promotion test of the SAC 2024 paper §4.1 (its Figure 7's cases), on one block's rows. */
class RowAccessCountsTest {
  private static final int MIN = 3;

  private static RowAccessCounts block(int rows) {
    int[] starts = new int[rows];
    for (int i = 0; i < rows; i++) {
      starts[i] = i * 100;
    }
    return new RowAccessCounts(starts);
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
  void anOffsetThatStartsNoRowCountsNothing() {
    RowAccessCounts c = block(4);
    assertThat(c.recordAndTestPromotion(150, 0)).isFalse();
    assertThat(c.count(100)).isZero();
  }
}
