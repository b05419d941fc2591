package io.bellows.testing.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.testing.history.RegisterModel.Cas;
import io.bellows.testing.history.RegisterModel.Read;
import io.bellows.testing.history.RegisterModel.Value;
import io.bellows.testing.history.RegisterModel.Write;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The checker must reject what is not linearizable, or a history test that passes proves nothing:
 * known bad histories (stale reads, a read going back in time, two winners of one compare-and-set)
 * are rejected, known good ones accepted, and on thousands of random small histories it agrees
 * with an exhaustive search over every order.
 */
@ExtendWith(SeedExtension.class)
class LinearizabilityCheckerTest {
  private static final RegisterModel REGISTER = new RegisterModel();
  private static final String K = "k";

  private static Operation op(int client, long from, long to, Object in, Object out) {
    return Operation.completed(client, K, from, to, in, out);
  }

  private static Value v(Long x) {
    return new Value(x);
  }

  private static boolean linearizable(Operation... ops) {
    return LinearizabilityChecker.check(REGISTER, List.of(ops)).linearizable();
  }

  @Test
  void aReadAfterACompletedWriteThatMissesItIsRejected() {
    assertThat(linearizable(op(0, 0, 10, new Write(1), true), op(1, 20, 30, new Read(), v(null)))).isFalse();
  }

  @Test
  void twoReadsInSequenceCannotSeeTheNewValueAndThenTheOld() {
    // The write overlaps both reads, so each alone may see either value; but once one read returned
    // the new value, a later read may not return the old one.
    assertThat(linearizable(op(0, 0, 100, new Write(1), true), op(1, 10, 20, new Read(), v(1L)),
        op(2, 30, 40, new Read(), v(null)))).isFalse();
    assertThat(linearizable(op(0, 0, 100, new Write(1), true), op(1, 10, 20, new Read(), v(null)),
        op(2, 30, 40, new Read(), v(1L)))).isTrue();
  }

  @Test
  void twoCompareAndSetsFromOneValueCannotBothWin() {
    assertThat(linearizable(op(0, 0, 10, new Cas(null, 1), true), op(1, 0, 10, new Cas(null, 2), true))).isFalse();
    assertThat(linearizable(op(0, 0, 10, new Cas(null, 1), true), op(1, 0, 10, new Cas(null, 2), false),
        op(2, 20, 30, new Read(), v(1L)))).isTrue();
  }

  @Test
  void aValueNobodyWroteIsRejected() {
    assertThat(linearizable(op(0, 0, 10, new Write(1), true), op(1, 0, 10, new Read(), v(7L)))).isFalse();
  }

  @Test
  void concurrentOperationsMayTakeEffectInEitherOrder() {
    assertThat(linearizable(op(0, 0, 10, new Write(1), true), op(1, 5, 15, new Write(2), true),
        op(2, 20, 30, new Read(), v(1L)))).isTrue();
    assertThat(linearizable(op(0, 0, 10, new Write(1), true), op(1, 5, 15, new Write(2), true),
        op(2, 20, 30, new Read(), v(2L)))).isTrue();
  }

  @Test
  void aWriteOfUnknownOutcomeMayTakeEffectLateOrNever() {
    Operation lost = Operation.unknown(0, K, 0, new Write(1));
    assertThat(linearizable(lost, op(1, 50, 60, new Read(), v(null)))).isTrue();
    assertThat(linearizable(lost, op(1, 50, 60, new Read(), v(1L)))).isTrue();
    // ... but not before it was invoked.
    assertThat(linearizable(Operation.unknown(0, K, 100, new Write(1)), op(1, 50, 60, new Read(), v(1L)))).isFalse();
  }

  @Test
  void keysAreCheckedApartAndTheFailingOneIsNamed() {
    List<Operation> h = List.of(Operation.completed(0, "a", 0, 10, new Write(1), true),
        Operation.completed(1, "b", 20, 30, new Read(), v(null)),
        Operation.completed(1, "a", 20, 30, new Read(), v(null)));
    LinearizabilityChecker.Result r = LinearizabilityChecker.check(REGISTER, h);
    assertThat(r.linearizable()).isFalse();
    assertThat(r.key()).isEqualTo("a");
    assertThat(r.describe()).contains("key a", "write(1)");
  }

  @Test
  void agreesWithAnExhaustiveSearchOnRandomSmallHistories(Seed seed) {
    Random rnd = seed.random();
    int accepted = 0;
    int rejected = 0;
    for (int round = 0; round < 4_000; round++) {
      List<Operation> h = randomHistory(rnd);
      boolean expected = ExhaustiveChecker.linearizable(REGISTER, h);
      LinearizabilityChecker.Result r = LinearizabilityChecker.check(REGISTER, h);
      assertThat(r.linearizable()).as("%s, round %d: %s", seed, round, h).isEqualTo(expected);
      if (expected) {
        accepted++;
      } else {
        rejected++;
      }
    }
    // Both verdicts must be common, or the agreement says little.
    assertThat(accepted).as(seed.toString()).isGreaterThan(400);
    assertThat(rejected).as(seed.toString()).isGreaterThan(400);
  }

  /**
   * Up to 7 operations of 3 clients on one key. Half are made linearizable on purpose (each takes
   * effect at a random instant in its interval and answers as the register would), then in half of
   * those one answer is changed; the rest are random.
   */
  private static List<Operation> randomHistory(Random rnd) {
    int n = 1 + rnd.nextInt(7);
    List<long[]> intervals = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long from = rnd.nextInt(40);
      intervals.add(new long[] {from, from + rnd.nextInt(15), 0});
    }
    List<Object> inputs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int kind = rnd.nextInt(3);
      inputs.add(kind == 0 ? new Read() : kind == 1 ? new Write(1 + rnd.nextInt(3))
          : new Cas(rnd.nextBoolean() ? null : (long) (1 + rnd.nextInt(3)), 1 + rnd.nextInt(3)));
    }
    Object[] outputs = new Object[n];
    if (rnd.nextBoolean()) {
      // Linearize at random points, then answer in that order.
      List<Integer> order = new ArrayList<>();
      double[] at = new double[n];
      for (int i = 0; i < n; i++) {
        long[] iv = intervals.get(i);
        at[i] = iv[0] + rnd.nextDouble() * (iv[1] - iv[0]);
        order.add(i);
      }
      order.sort((a, b) -> Double.compare(at[a], at[b]));
      Value state = REGISTER.initial();
      for (int i : order) {
        Object in = inputs.get(i);
        outputs[i] = in instanceof Read ? state : in instanceof Write ? Boolean.TRUE
            : Boolean.valueOf(java.util.Objects.equals(state.v(), ((Cas) in).expected()));
        state = REGISTER.step(state, in, outputs[i]);
      }
      if (rnd.nextBoolean()) {
        int i = rnd.nextInt(n);
        outputs[i] = randomOutput(rnd, inputs.get(i));
      }
    } else {
      for (int i = 0; i < n; i++) {
        outputs[i] = randomOutput(rnd, inputs.get(i));
      }
    }
    List<Operation> h = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long[] iv = intervals.get(i);
      boolean unknown = !(inputs.get(i) instanceof Read) && rnd.nextInt(6) == 0;
      h.add(unknown ? Operation.unknown(i % 3, K, iv[0], inputs.get(i))
          : Operation.completed(i % 3, K, iv[0], iv[1], inputs.get(i), outputs[i]));
    }
    return h;
  }

  private static Object randomOutput(Random rnd, Object in) {
    if (in instanceof Read) {
      int x = rnd.nextInt(4);
      return new Value(x == 0 ? null : (long) x);
    }
    return in instanceof Write ? Boolean.TRUE : Boolean.valueOf(rnd.nextBoolean());
  }
}
