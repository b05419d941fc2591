package io.bellows.testing.history;

/**
 * One operation of a recorded history: what a client asked ({@code input}), what it was told
 * ({@code output}), and when it asked and was answered, on one clock shared by every client.
 *
 * <p>An operation whose outcome is unknown (the call failed, timed out, or its client died) has
 * {@code output == null} and {@code completedAt == }{@link #UNKNOWN}: it may have taken effect at
 * any time after its invocation, or never.
 *
 * @param client the client that made the call (for reports)
 * @param key what the call touched; histories are checked key by key
 */
public record Operation(int client, Object key, long invokedAt, long completedAt, Object input, Object output) {
  /** The completion time of an operation whose outcome is unknown. */
  public static final long UNKNOWN = Long.MAX_VALUE;

  public Operation {
    if (completedAt < invokedAt) {
      throw new IllegalArgumentException("completed before it was invoked: " + invokedAt + " > " + completedAt);
    }
    if ((output == null) != (completedAt == UNKNOWN)) {
      throw new IllegalArgumentException("an operation has an output exactly when it completed: " + output);
    }
  }

  /** An operation whose client saw its answer. */
  public static Operation completed(int client, Object key, long invokedAt, long completedAt, Object input,
      Object output) {
    return new Operation(client, key, invokedAt, completedAt, input, output);
  }

  /** An operation whose client never learnt whether it took effect. */
  public static Operation unknown(int client, Object key, long invokedAt, Object input) {
    return new Operation(client, key, invokedAt, UNKNOWN, input, null);
  }

  public boolean outcomeKnown() {
    return completedAt != UNKNOWN;
  }

  /** Whether this operation finished before {@code other} began (real-time order). */
  public boolean precedes(Operation other) {
    return completedAt < other.invokedAt;
  }

  @Override
  public String toString() {
    return "client " + client + " " + input + " -> " + (outcomeKnown() ? output : "?") + " [" + invokedAt + ", "
        + (outcomeKnown() ? completedAt : "...") + "]";
  }
}
