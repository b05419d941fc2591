package io.bellows.testing.history;

import java.util.Objects;

/**
 * A register per key (one column of one row): reads, writes and compare-and-set; {@code null} is
 * the absent value. The state is the register's value, boxed in {@link Value} so that absent is a
 * state like any other.
 */
public final class RegisterModel implements Model<RegisterModel.Value> {
  /** The register's value; {@code v == null} when the column is absent. */
  public record Value(Long v) {}

  /** Reads the value; its output is the value read (a {@link Value}). */
  public record Read() {
    @Override
    public String toString() {
      return "read";
    }
  }

  /** Writes {@code value}; its output is {@link Boolean#TRUE}. */
  public record Write(long value) {
    @Override
    public String toString() {
      return "write(" + value + ")";
    }
  }

  /** Writes {@code value} if the register holds {@code expected} (null: absent); its output says whether it did. */
  public record Cas(Long expected, long value) {
    @Override
    public String toString() {
      return "cas(" + expected + " -> " + value + ")";
    }
  }

  @Override
  public Value initial() {
    return new Value(null);
  }

  @Override
  public Value step(Value state, Object input, Object output) {
    if (input instanceof Read) {
      return output == null || output.equals(state) ? state : null;
    }
    if (input instanceof Write w) {
      return new Value(w.value());
    }
    if (input instanceof Cas c) {
      boolean holds = Objects.equals(state.v(), c.expected());
      if (output != null && !output.equals(holds)) {
        return null;
      }
      return holds ? new Value(c.value()) : state;
    }
    throw new IllegalArgumentException("not a register operation: " + input);
  }
}
