package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ZipfKeysTest {
  private static final long SEED = 7;
  private static final int DRAWS = 400_000;

  @Test
  void firstTwoRanksMatchExactZipfProbabilities() {
    System.out.println("seed " + SEED);
    ZipfKeys z = new ZipfKeys(1000, 0.99, SEED);
    long[] counts = new long[1000];
    for (int i = 0; i < DRAWS; i++) {
      long r = z.nextRank();
      assertThat(r).isBetween(0L, 999L);
      counts[(int) r]++;
    }
    // The inversion is exact for ranks 0 and 1; allow 5 standard deviations of a binomial count.
    for (int k = 0; k < 2; k++) {
      double p = z.probability(k);
      double sigma = Math.sqrt(DRAWS * p * (1 - p));
      assertThat((double) counts[k]).as("rank %d", k).isCloseTo(DRAWS * p, org.assertj.core.data.Offset.offset(5 * sigma));
    }
    // Beyond rank 1 the closed form approximates the law: the head must still dominate the tail.
    long head = 0;
    for (int k = 0; k < 10; k++) {
      head += counts[k];
    }
    double exactHead = 0;
    for (int k = 0; k < 10; k++) {
      exactHead += z.probability(k);
    }
    assertThat(head / (double) DRAWS).isCloseTo(exactHead, org.assertj.core.data.Offset.offset(0.03));
    assertThat(counts[0]).isGreaterThan(counts[1]);
    assertThat(counts[1]).isGreaterThan(counts[50]);
  }

  @Test
  void sameSeedSameSequenceAndRowIdsAreScattered() {
    ZipfKeys a = new ZipfKeys(1_000, 0.99, SEED);
    ZipfKeys b = new ZipfKeys(1_000, 0.99, SEED);
    Set<Long> ids = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      long id = a.nextRowId();
      assertThat(b.nextRowId()).isEqualTo(id);
      ids.add(id);
    }
    assertThat(ids.size()).isBetween(100, 1000);
    // Rank 0 and rank 1 map to ids far apart, not neighbours in key order.
    assertThat(Math.abs(KeyMixer.mix(0) - KeyMixer.mix(1))).isGreaterThan(1L << 32);
  }

  @Test
  void rejectsBadParameters() {
    assertThatThrownBy(() -> new ZipfKeys(1, 0.99, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ZipfKeys(10, 1.0, 1)).isInstanceOf(IllegalArgumentException.class);
  }
}
