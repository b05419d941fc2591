package io.bellows.cli.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The first seconds' mean rate against the steady seconds' mean, counted from second 1. */
class WarmupSummaryTest {
  @Test
  void firstSecondsAndSteadySecondsAreMeanRatesOfTheirOwnSeconds() {
    WarmupSummary s = WarmupSummary.of(new long[] {10, 20, 30, 60, 90}, 2, 4);
    assertThat(s.firstRate()).isEqualTo(15.0);
    assertThat(s.steadyRate()).isEqualTo(75.0);
    assertThat(s.ratio()).isCloseTo(0.2, within(1e-12));
    assertThat(s.describe()).isEqualTo("first 2 s: 15 ops/s; steady (s 4-5): 75 ops/s; first/steady 0.20");
  }

  @Test
  void secondsOutsideTheRunAreRefused() {
    assertThatThrownBy(() -> WarmupSummary.of(new long[3], 4, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WarmupSummary.of(new long[3], 1, 4)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WarmupSummary.of(new long[3], 0, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThat(WarmupSummary.of(new long[] {5, 0}, 1, 2).ratio()).isZero(); // nothing steady: no ratio
  }
}
