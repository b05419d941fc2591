package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LatestKeysTest {
  private static final long SEED = Long.getLong("bellows.test.seed", System.nanoTime());
  private static final int DRAWS = 200_000;

  /** Rows that exist before {@code keys}' next draw, as it counts them. */
  private static long count(LatestKeys keys, long keySpace, int writers) {
    return keySpace + keys.inserts() * writers;
  }

  @Test
  void fivePercentInsertNewRowsTheRestUpdateRecentOnesTheNewestMostOften() {
    System.out.println("LatestKeysTest seed " + SEED + " (re-run: -Dbellows.test.seed=" + SEED + ")");
    long keySpace = 10_000;
    LatestKeys keys = new LatestKeys(keySpace, SEED, 0, 1);
    int inserts = 0;
    int newestTen = 0;
    for (int i = 0; i < DRAWS; i++) {
      long before = count(keys, keySpace, 1);
      long row = keys.nextRow();
      if (row >= before) {
        assertThat(row).as("an insert adds the next row").isEqualTo(before);
        inserts++;
      } else {
        assertThat(row).as("an update hits a row that exists").isBetween(0L, before - 1);
        if (before - 1 - row < 10) {
          newestTen++;
        }
      }
    }
    double p = LatestKeys.INSERT_SHARE;
    double sigma = Math.sqrt(DRAWS * p * (1 - p));
    assertThat((double) inserts).as("inserts").isBetween(DRAWS * p - 6 * sigma, DRAWS * p + 6 * sigma);
    // Zipf θ = 0.99 over 10,000–20,000 rows: the ten newest take ζ(10) / ζ(n) of the updates, 0.29–0.31.
    double shareTen = (double) newestTen / (DRAWS - inserts);
    assertThat(shareTen).as("share of updates on the ten newest rows")
        .isBetween(ZipfKeys.zeta(10, 0.99) / ZipfKeys.zeta(20_000, 0.99) - 0.02,
            ZipfKeys.zeta(10, 0.99) / ZipfKeys.zeta(10_000, 0.99) + 0.02);
  }

  @Test
  void writersInsertDisjointRowsAndTheSameSeedGivesTheSameSequence() {
    long keySpace = 100;
    LatestKeys w0 = new LatestKeys(keySpace, 7, 0, 2);
    LatestKeys w1 = new LatestKeys(keySpace, 8, 1, 2);
    Set<Long> inserted0 = new HashSet<>();
    Set<Long> inserted1 = new HashSet<>();
    for (int i = 0; i < 20_000; i++) {
      for (LatestKeys w : new LatestKeys[] {w0, w1}) {
        long insertsBefore = w.inserts();
        long row = w.nextRow();
        if (w.inserts() > insertsBefore) {
          (w == w0 ? inserted0 : inserted1).add(row);
        }
      }
    }
    assertThat(inserted0).isNotEmpty().allMatch(r -> r >= keySpace && (r - keySpace) % 2 == 0);
    assertThat(inserted1).isNotEmpty().allMatch(r -> r >= keySpace && (r - keySpace) % 2 == 1);

    LatestKeys a = new LatestKeys(1000, 3, 1, 4);
    LatestKeys b = new LatestKeys(1000, 3, 1, 4);
    for (int i = 0; i < 1000; i++) {
      assertThat(a.nextRowId()).isEqualTo(b.nextRowId());
    }
  }

  @Test
  void badArgumentsAreRefused() {
    assertThatThrownBy(() -> new LatestKeys(1, 1, 0, 1)).hasMessageContaining("at least 2 rows");
    assertThatThrownBy(() -> new LatestKeys(100, 1, 4, 4)).hasMessageContaining("writer 4 of 4");
    assertThat(KeyDistribution.LATEST.chooser(100, 1, 2, 3)).isInstanceOf(LatestKeys.class);
  }
}
