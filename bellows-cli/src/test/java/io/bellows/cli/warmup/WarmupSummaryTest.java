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

  @Test
  void cpuWindowsHoldTheSecondsThatBeganBeforeOrAfterTheirCpuTime() {
    long s = 1_000_000_000L;
    WarmupSummary.CpuSummary c = WarmupSummary.byCpu(new long[] {10, 20, 30, 40}, new long[] {s, s, 2 * s, 2 * s},
        2, 4);
    // Seconds began at 0, 1, 2 and 4 CPU-s: the first two are the first window, the third neither, the last steady.
    assertThat(c.firstRate()).isEqualTo(15.0);
    assertThat(c.steadyRate()).isEqualTo(20.0);
    assertThat(c.ratio()).isEqualTo(0.75);
    assertThat(c.describe()).isEqualTo("per CPU-second: first 2 CPU-s: 15 ops; steady (from 4 CPU-s): 20 ops;"
        + " first/steady 0.75");
  }

  @Test
  void aRunThatNeverReachedTheSteadyCpuWindowSaysSo() {
    WarmupSummary.CpuSummary c = WarmupSummary.byCpu(new long[] {10, 20}, new long[] {500_000_000L, 500_000_000L},
        2, 4);
    assertThat(c.reached()).isFalse();
    assertThat(c.describe()).contains("the run used 1.0 CPU-s").contains("run longer (--seconds)");
  }
}
