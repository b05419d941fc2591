package io.bellows.cli.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The warm-up workload's rows are YCSB's: the same keys (record 0 is YCSB's first key with hashed
 * inserts) and a Zipf law whose hottest rank is drawn with YCSB's probability. Constant seeds: the
 * draws are deterministic.
 */
class YcsbKeysTest {
  @Test
  void recordZeroIsYcsbsFirstKey() {
    assertThat(new String(YcsbKeys.row(0), StandardCharsets.UTF_8)).isEqualTo("user6284781860667377211");
  }

  @Test
  void rankZeroTakesOneOverZetaOfTheDrawsAndRanksStayInRange() {
    double zeta = 26.46902820178302;
    assertThat(YcsbKeys.rank(0.0)).isZero();
    assertThat(YcsbKeys.rank(0.999 / zeta)).isZero();
    assertThat(YcsbKeys.rank(1.001 / zeta)).isEqualTo(1);
    assertThat(YcsbKeys.rank(0.999_999_999)).isBetween(2L, 10_000_000_000L - 1);
  }

  @Test
  void requestsFallOnLoadedRecordsAndAFewRecordsTakeMostOfThem() {
    YcsbKeys keys = new YcsbKeys(1000, new SplittableRandom(42));
    int[] hits = new int[1000];
    for (int i = 0; i < 100_000; i++) {
      long n = keys.nextRecord();
      assertThat(n).isBetween(0L, 999L);
      hits[(int) n]++;
    }
    int max = 0;
    for (int h : hits) {
      max = Math.max(max, h);
    }
    // The hottest rank alone is 1/26.47 = 3.8% of the draws (100,000 draws: 3,778 expected).
    assertThat(max).isGreaterThan(3_000);
  }
}
