package io.bellows.testing.history;

import java.util.ArrayList;
import java.util.List;

/**
 * The reference for {@link LinearizabilityChecker}: tries every order of a (small) history's
 * operations that respects their real-time order. Exponential; for tests of a few operations.
 */
final class ExhaustiveChecker {
  private ExhaustiveChecker() {}

  static <S> boolean linearizable(Model<S> model, List<Operation> ops) {
    return search(model, model.initial(), new ArrayList<>(ops));
  }

  private static <S> boolean search(Model<S> model, S state, List<Operation> left) {
    if (left.isEmpty()) {
      return true;
    }
    for (int i = 0; i < left.size(); i++) {
      Operation op = left.get(i);
      if (left.stream().anyMatch(other -> other.precedes(op))) {
        continue; // something that finished before op began must come first
      }
      S next = model.step(state, op.input(), op.output());
      if (next == null) {
        continue;
      }
      List<Operation> rest = new ArrayList<>(left);
      rest.remove(i);
      if (search(model, next, rest)) {
        return true;
      }
    }
    return false;
  }
}
