package io.bellows.testing.history;

/**
 * A counter per key (one column holding an 8-byte long): reads and increments; {@code null} is the
 * absent column, which an increment treats as 0. An increment answers the value after it, so an
 * increment applied twice, or one lost, shows in the values the others return and the reads see.
 */
public final class CounterModel implements Model<CounterModel.Count> {
  /** The counter's value; {@code v == null} when the column is absent. */
  public record Count(Long v) {}

  /** Reads the value; its output is a {@link Count}. */
  public record Read() {
    @Override
    public String toString() {
      return "read";
    }
  }

  /** Adds {@code delta}; its output is the value after it (a Long). */
  public record Increment(long delta) {
    @Override
    public String toString() {
      return "increment(" + delta + ")";
    }
  }

  @Override
  public Count initial() {
    return new Count(null);
  }

  @Override
  public Count step(Count state, Object input, Object output) {
    if (input instanceof Read) {
      return output == null || output.equals(state) ? state : null;
    }
    if (input instanceof Increment i) {
      long after = (state.v() == null ? 0 : state.v()) + i.delta();
      return output == null || output.equals(after) ? new Count(after) : null;
    }
    throw new IllegalArgumentException("not a counter operation: " + input);
  }
}
