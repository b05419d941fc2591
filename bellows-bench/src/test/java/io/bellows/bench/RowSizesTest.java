package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RowSizesTest {
  @Test
  void sizesAreHeavyTailedAndStablePerRow() {
    int n = 200_000;
    int small = 0;
    int large = 0;
    long sum = 0;
    for (long id = 0; id < n; id++) {
      int s = RowSizes.of(id);
      assertThat(s).isBetween(RowSizes.MIN, RowSizes.MAX);
      assertThat(RowSizes.of(id)).isEqualTo(s);
      small += s <= 256 ? 1 : 0;
      large += s > 16 * 1024 ? 1 : 0;
      sum += s;
    }
    assertThat(small / (double) n).isBetween(0.78, 0.82);
    assertThat(large / (double) n).isBetween(0.004, 0.012);
    assertThat(sum / (double) n).isBetween(400.0, 620.0);
  }

  @Test
  void cbmgSessionsStayInTheKeySpaceAndRevisitNeighbours() {
    CbmgKeys keys = new CbmgKeys(1_000_000, 10_000, CbmgKeys.DEFAULT_P_NEAR, CbmgKeys.DEFAULT_P_HOT,
        CbmgKeys.DEFAULT_MEAN_SESSION, 42);
    long prev = -1;
    int near = 0;
    for (int i = 0; i < 100_000; i++) {
      long k = keys.next();
      assertThat(k).isBetween(0L, 999_999L);
      near += prev >= 0 && Math.abs(k - prev) <= 3 * CbmgKeys.NEIGHBOURHOOD ? 1 : 0;
      prev = k;
    }
    assertThat(near).as("requests close to the previous one").isGreaterThan(5_000);
  }
}
