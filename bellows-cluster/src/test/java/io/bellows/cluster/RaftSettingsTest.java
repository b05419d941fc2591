package io.bellows.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.junit.jupiter.api.Test;

/**
 * The Ratis properties a {@link RaftNode} runs with: the failover's timings (docs/design/cluster.md,
 * "Per-replica cost") and the choices Ratis' defaults do not make.
 */
class RaftSettingsTest {
  private static long millis(org.apache.ratis.util.TimeDuration d) {
    return d.toLong(TimeUnit.MILLISECONDS);
  }

  @Test
  void electionsWaitBetweenTheTwoBoundsAndPreVoteIsOn() {
    RaftProperties p = RaftSettings.of("127.0.0.1", 1, Path.of("raft")).toProperties();
    assertThat(millis(RaftServerConfigKeys.Rpc.timeoutMin(p))).isEqualTo(1000);
    assertThat(millis(RaftServerConfigKeys.Rpc.timeoutMax(p))).isEqualTo(2000);
    // A new group (a table's region, a split's daughter) has no leader to wait for: it elects soon.
    assertThat(millis(RaftServerConfigKeys.Rpc.firstElectionTimeoutMin(p))).isEqualTo(150);
    assertThat(millis(RaftServerConfigKeys.Rpc.firstElectionTimeoutMax(p))).isEqualTo(300);
    assertThat(millis(RaftServerConfigKeys.LeaderElection.leaderStepDownWaitTime(p))).isEqualTo(2000);
    // A member back from a partition must not depose a healthy leader: it asks before it stands.
    assertThat(RaftServerConfigKeys.LeaderElection.preVote(p)).isTrue();
    assertThat(RaftServerConfigKeys.Read.leaderLeaseEnabled(p)).isTrue();
  }

  @Test
  void aLeaderThatLostItsMajorityStandsAgainAfterOneElectionTimeoutNotTenSeconds() {
    RaftProperties p = RaftSettings.of("127.0.0.1", 1, Path.of("raft"))
        .withElectionTimeouts(Duration.ofMillis(500), Duration.ofMillis(900)).toProperties();
    assertThat(millis(RaftServerConfigKeys.LeaderElection.leaderStepDownWaitTime(p))).isEqualTo(900);
  }

  @Test
  void theMinimumMustBeBelowTheMaximum() {
    assertThatThrownBy(() -> RaftSettings.of("127.0.0.1", 1, Path.of("raft"))
        .withElectionTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("below the maximum");
  }

  /** Ratis' in-memory copies of a busy group's entries ran a 256 MB member out of memory with its defaults. */
  @Test
  void aGroupsLogFilesAreSmallAndItsRetryCacheShort() {
    RaftProperties p = RaftSettings.of("127.0.0.1", 1, Path.of("raft")).toProperties();
    assertThat(RaftServerConfigKeys.Log.segmentSizeMax(p).getSize()).isEqualTo(4L << 20); // was 8 MiB
    assertThat(millis(RaftServerConfigKeys.RetryCache.expiryTime(p))).isEqualTo(5000); // Ratis: 60 s
  }

  /** A member back from an outage is sent its log within a second, not after Ratis' pauses of 5 s. */
  @Test
  void aLeadersAppenderPausesAtMostASecondAfterFailures() {
    RaftProperties p = RaftSettings.of("127.0.0.1", 1, Path.of("raft")).toProperties();
    RetryPolicy policy = RetryPolicy.parse(RaftServerConfigKeys.Log.Appender.retryPolicy(p));
    for (int failures : new int[] {1, 10, 11, 20, 21, 30, 31, 1000, 100_000}) {
      long pause = millis(policy.handleAttemptFailure(() -> failures).getSleepTime());
      assertThat(pause).as("pause after %d failures", failures).isLessThanOrEqualTo(1500); // 1 s, randomized
    }
  }
}
