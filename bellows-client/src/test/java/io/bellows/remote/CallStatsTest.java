package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CallStatsTest {
  @Test
  void callsAreCountedByAttemptsWithTheLongOnesTogetherAndSnapshotsSubtractAndAdd() {
    CallStats stats = new CallStats();
    CallStats.Snapshot empty = stats.snapshot();
    assertThat(empty.calls()).isZero();
    assertThat(empty.mostAttempts()).isZero();
    assertThat(empty).hasToString("no calls; split re-routes 0");

    stats.recordCall(1);
    stats.recordCall(1);
    stats.recordCall(3);
    stats.recordSplitReroute();
    CallStats.Snapshot first = stats.snapshot();
    assertThat(first.byAttempts()).containsExactly(2, 0, 1, 0, 0, 0, 0, 0);
    assertThat(first).hasToString("1: 2, 3: 1; split re-routes 1");

    stats.recordCall(12); // past the last bucket: counted there
    stats.recordCall(2);
    CallStats.Snapshot since = stats.snapshot().minus(first);
    assertThat(since.calls()).isEqualTo(2);
    assertThat(since.mostAttempts()).isEqualTo(8);
    assertThat(since.splitReroutes()).isZero();
    assertThat(since).hasToString("2: 1, 8+: 1; split re-routes 0");
    assertThat(first.plus(since).byAttempts()).containsExactly(stats.snapshot().byAttempts());

    long[] outside = first.byAttempts();
    outside[0] = 99; // a copy: the snapshot does not change
    assertThat(first.byAttempts()[0]).isEqualTo(2);
  }
}
