package io.bellows.testing.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.testing.history.CounterModel.Count;
import io.bellows.testing.history.CounterModel.Increment;
import io.bellows.testing.history.CounterModel.Read;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The counter model under the checker: an increment applied twice or lost is rejected; one of unknown outcome may apply or not. */
class CounterModelTest {
  private static Operation op(int client, long from, long to, Object in, Object out) {
    return Operation.completed(client, "n", from, to, in, out);
  }

  private static boolean linearizable(Operation... ops) {
    return LinearizabilityChecker.check(new CounterModel(), List.of(ops)).linearizable();
  }

  @Test
  void anIncrementAppliedTwiceIsRejected() {
    // One increment by 1, acknowledged as 1; a later read sees 2.
    assertThat(linearizable(op(0, 0, 10, new Increment(1), 1L), op(1, 20, 30, new Read(), new Count(2L)))).isFalse();
    // Two increments cannot both answer 1.
    assertThat(linearizable(op(0, 0, 10, new Increment(1), 1L), op(1, 0, 10, new Increment(1), 1L))).isFalse();
  }

  @Test
  void anAcknowledgedIncrementLostIsRejected() {
    assertThat(linearizable(op(0, 0, 10, new Increment(1), 1L), op(1, 20, 30, new Read(), new Count(null)))).isFalse();
    assertThat(linearizable(op(0, 0, 10, new Increment(1), 1L), op(1, 20, 30, new Increment(1), 1L))).isFalse();
  }

  @Test
  void anIncrementOfUnknownOutcomeMayApplyOrNot() {
    Operation unknown = Operation.unknown(0, "n", 0, new Increment(1));
    assertThat(linearizable(unknown, op(1, 20, 30, new Increment(1), 2L), op(2, 40, 50, new Read(), new Count(2L))))
        .isTrue();
    assertThat(linearizable(unknown, op(1, 20, 30, new Increment(1), 1L), op(2, 40, 50, new Read(), new Count(1L))))
        .isTrue();
    assertThat(linearizable(unknown, op(1, 20, 30, new Read(), new Count(1L)), op(2, 40, 50, new Read(), new Count(null))))
        .isFalse();
  }
}
