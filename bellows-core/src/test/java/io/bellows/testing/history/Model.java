package io.bellows.testing.history;

/**
 * A sequential specification of one key's object: the checker asks whether some order of a
 * history's operations, consistent with their real-time order, is a run of this model.
 *
 * <p>States must be immutable values ({@code equals}/{@code hashCode}): the checker remembers the
 * (operations done, state) pairs it has explored.
 *
 * @param <S> the state of the object
 */
public interface Model<S> {
  S initial();

  /**
   * The state after {@code input} in {@code state} if the model could answer {@code output}
   * there, else null. {@code output} is null for an operation of unknown outcome, which must then
   * be accepted (with the state its input leads to).
   */
  S step(S state, Object input, Object output);
}
