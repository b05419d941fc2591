package io.bellows.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/** The promotion test of the SAC 2024 paper §4.1 (its Figure 7's cases), on one block's rows. */
class RowAccessCountsTest {
  private static final int MIN = 3;

  /** A walk of a block of 8 rows. */
  private static final IntSupplier EIGHT = () -> 8;

  @Test
  void aRowReadFarMoreThanItsNeighboursIsPromotedAndStartsAgain() {
    RowAccessCounts c = new RowAccessCounts();
    c.recordAndTestPromotion(0, MIN, EIGHT);
    c.recordAndTestPromotion(700, MIN, EIGHT);
    boolean promoted = false;
    int reads = 0;
    while (!promoted) {
      promoted = c.recordAndTestPromotion(300, MIN, EIGHT);
      reads++;
    }
    assertThat(reads).isEqualTo(MIN + 1); // the first count over the minimum, far above mean + sd
    assertThat(c.count(300)).isZero();
    assertThat(c.count(0)).isEqualTo(1);
  }

  @Test
  void aRowIsNotPromotedBeforeItPassesTheMinimum() {
    RowAccessCounts cold = new RowAccessCounts();
    for (int i = 0; i < MIN; i++) {
      assertThat(cold.recordAndTestPromotion(500, MIN, EIGHT)).as("count %s is not over the minimum", i + 1)
          .isFalse();
    }
  }

  @Test
  void aBlockOfOneRowNeverPromotesIt() {
    RowAccessCounts one = new RowAccessCounts();
    for (int i = 0; i < 100; i++) {
      // The row is the whole block: well used.
      assertThat(one.recordAndTestPromotion(0, MIN, () -> 1)).isFalse();
    }
  }

  @Test
  void theBlocksRowsAreCountedOnlyOnceACountPassesTheMinimum() {
    int[] walks = {0};
    IntSupplier walk = () -> {
      walks[0]++;
      return 8;
    };
    RowAccessCounts c = new RowAccessCounts();
    for (int row = 0; row < 8; row++) {
      for (int i = 0; i < MIN; i++) {
        c.recordAndTestPromotion(row * 100, MIN, walk);
      }
    }
    assertThat(walks[0]).as("walks of the block while every count is at most the minimum").isZero();
    assertThat(c.recordAndTestPromotion(300, MIN, walk)).as("4 reads over a mean of 3.1 + sd 0.3").isTrue();
    assertThat(walks[0]).isEqualTo(1);
    for (int row = 0; row < 64; row++) { // many rows: the map grows and keeps every count
      c.recordAndTestPromotion(10_000 + row, MIN, walk);
    }
    assertThat(walks[0]).as("the row count is asked for once").isEqualTo(1);
    assertThat(c.count(0)).isEqualTo(MIN);
    assertThat(c.count(10_063)).isEqualTo(1);
    assertThat(c.count(300)).isZero();
  }

  /**
   * L2 keeps a block's counts beside its slot for as long as it holds the block. When the counts
   * kept the get's walk, the walk's read kept the block's 64 KiB heap copy alive with them: under
   * L1 admission NONE with the KV cache on, half a gigabyte of heap no cache accounted for. The
   * counts hold numbers only.
   */
  @Test
  void theCountsKeepNothingACallerHandsThem() {
    for (Field f : RowAccessCounts.class.getDeclaredFields()) {
      if (Modifier.isStatic(f.getModifiers())) {
        continue;
      }
      assertThat(f.getType()).as(f.getName()).isIn(int.class, long.class, int[].class);
    }
  }
}
