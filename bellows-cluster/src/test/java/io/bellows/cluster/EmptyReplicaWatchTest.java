package io.bellows.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** When the watch of a replica added empty asks its leader to hand over ({@link RaftNode.EmptyReplica#observe}). */
class EmptyReplicaWatchTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final long SILENT = 15 * SECOND;

  private static RaftNode.EmptyReplica replica() {
    return new RaftNode.EmptyReplica(List.of(new RaftNode.Peer("m1", "a:1"), new RaftNode.Peer("m2", "a:2"),
        new RaftNode.Peer("m3", "a:3")));
  }

  /** The leader each second from 0 to {@code seconds}, and the leaders asked to hand over. */
  private static List<String> asked(RaftNode.EmptyReplica r, int seconds, java.util.function.IntFunction<String> leader) {
    List<String> asked = new ArrayList<>();
    for (int s = 0; s <= seconds; s++) {
      String a = r.observe("m3", leader.apply(s), s * SECOND, SILENT);
      if (a != null) {
        asked.add(s + ":" + a);
      }
    }
    return asked;
  }

  @Test
  void aReplicaThatKnowsItsLeaderThroughoutAsksAfterTheSilenceAndAgainAfterAsLong() {
    assertThat(asked(replica(), 31, s -> "m2")).containsExactly("15:m2", "30:m2");
  }

  @Test
  void aReplicaThatLosesSightOfItsLeaderBetweenSparseHeartbeatsStillAsks() {
    // The leader's heartbeats to a member it takes for holding entries it lacks come less often
    // than the member's election timeout: the member drops the leader in between (its pre-vote).
    assertThat(asked(replica(), 16, s -> s % 2 == 0 ? "m2" : null)).containsExactly("15:m2");
  }

  @Test
  void aReplicaThatNeverKnewALeaderOrLeadsItselfAsksNoOne() {
    assertThat(asked(replica(), 40, s -> null)).isEmpty();
    assertThat(asked(replica(), 40, s -> "m3")).isEmpty();
  }

  @Test
  void theLeaderAskedIsTheLastOneKnown() {
    assertThat(asked(replica(), 15, s -> s < 5 ? "m1" : s < 10 ? "m2" : null)).containsExactly("15:m2");
  }
}
