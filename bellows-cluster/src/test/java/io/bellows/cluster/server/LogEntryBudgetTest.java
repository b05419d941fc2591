package io.bellows.cluster.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The member's budget of log entries above its replicas' flushes: past it, the replica with the most is flushed. */
class LogEntryBudgetTest {
  private final List<String> flushes = new ArrayList<>();

  private LogEntryBudget<String> budget(long limit) {
    return new LogEntryBudget<>(limit, r -> flushes.add(r));
  }

  @Test
  void pastTheLimitTheReplicaHoldingTheMostEntriesIsFlushedAndAFlushBeginningDropsItsEntries() {
    LogEntryBudget<String> b = budget(10);
    for (int i = 0; i < 3; i++) {
      b.applied("a");
    }
    for (int i = 0; i < 7; i++) {
      b.applied("b");
    }
    assertThat(flushes).as("at the limit, not past it").isEmpty();
    b.applied("a");
    assertThat(flushes).containsExactly("b");
    b.flushing("b");
    assertThat(b.total()).isEqualTo(4);
    assertThat(b.entries("b")).isZero();
    b.applied("b");
    assertThat(flushes).as("under the limit again").containsExactly("b");
  }

  @Test
  void aReplicaThatIsGoneLeavesTheBudget() {
    LogEntryBudget<String> b = budget(5);
    for (int i = 0; i < 5; i++) {
      b.applied("old");
    }
    b.forget("old");
    assertThat(b.total()).isZero();
    b.applied("new");
    assertThat(flushes).isEmpty();
  }

  @Test
  void theBudgetIsATenthOfTheHeapAtTheEntrysCostWithAFloor() {
    assertThat(LogEntryBudget.forHeap(256L << 20)).isEqualTo((256L << 20) / 10 / LogEntryBudget.BYTES_PER_ENTRY);
    assertThat(LogEntryBudget.forHeap(1L << 20)).isEqualTo(10_000);
    assertThatThrownBy(() -> budget(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
