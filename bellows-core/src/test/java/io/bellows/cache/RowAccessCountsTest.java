package io.bellows.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The promotion test of the SAC 2024 paper §4.1 (its Figure 7's cases), on one block's rows. */
@ExtendWith(SeedExtension.class)
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

  @Test
  void twoRowsAreCountedInlineAndAThirdMovesEveryCountIntoTheMap() {
    RowAccessCounts c = new RowAccessCounts();
    c.recordAndTestPromotion(40, MIN, EIGHT);
    c.recordAndTestPromotion(40, MIN, EIGHT);
    c.recordAndTestPromotion(80, MIN, EIGHT);
    assertThat(c.hasArrays()).as("two rows: no arrays").isFalse();
    assertThat(c.count(40)).isEqualTo(2);
    assertThat(c.count(80)).isEqualTo(1);
    c.recordAndTestPromotion(120, MIN, EIGHT);
    assertThat(c.hasArrays()).isTrue();
    assertThat(c.count(40)).isEqualTo(2);
    assertThat(c.count(80)).isEqualTo(1);
    assertThat(c.count(120)).isEqualTo(1);
    assertThat(c.count(0)).isZero();
  }

  /**
   * Random reads of blocks of 1 to 40 rows, skewed or not, against the test written out over a map:
   * the same promotions at the same reads, through the move from inline pairs to the map and its
   * growth.
   */
  @Test
  void promotesAsTheTestWrittenOverAMapDoes(Seed seed) {
    Random rnd = new Random(seed.value());
    for (int block = 0; block < 300; block++) {
      int rowsInBlock = 1 + rnd.nextInt(40);
      int min = 1 + rnd.nextInt(5);
      boolean skewed = rnd.nextBoolean();
      RowAccessCounts counts = new RowAccessCounts();
      Map<Integer, Long> model = new HashMap<>();
      long sum = 0;
      long squares = 0;
      int reads = rnd.nextInt(400);
      for (int r = 0; r < reads; r++) {
        int row = skewed ? (int) Math.min(rowsInBlock - 1, Math.abs(rnd.nextGaussian()) * 3) : rnd.nextInt(rowsInBlock);
        int start = row * 57;
        long c = model.getOrDefault(start, 0L) + 1;
        model.put(start, c);
        sum++;
        squares += 2 * c - 1;
        double mean = (double) sum / rowsInBlock;
        double sd = Math.sqrt(Math.max(0, (double) squares / rowsInBlock - mean * mean));
        boolean expected = c > min && c > mean + sd;
        if (expected) {
          model.put(start, 0L);
          sum -= c;
          squares -= c * c;
        }
        assertThat(counts.recordAndTestPromotion(start, min, () -> rowsInBlock))
            .as("seed %d, block %d, read %d of row %d", seed.value(), block, r, row).isEqualTo(expected);
      }
      for (Map.Entry<Integer, Long> e : model.entrySet()) {
        assertThat((long) counts.count(e.getKey())).as("seed %d, block %d", seed.value(), block).isEqualTo(e.getValue());
      }
    }
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
