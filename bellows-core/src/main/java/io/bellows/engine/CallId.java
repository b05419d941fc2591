package io.bellows.engine;

/**
 * Names one write call of one client, so that an engine that {@linkplain Engine#deduplicatesCalls
 * deduplicates} (a replicated cluster: docs/design/cluster.md) applies it at most once however often
 * the client sends it: the client's id (128 random bits, one per client instance, as two longs), the
 * call's id (increasing per client, from 1) and the lowest id of the client's calls still waiting for
 * an answer, this one included (the engine may forget the answers of the calls below it).
 */
public record CallId(long clientHigh, long clientLow, long call, long lowestOutstanding) {
  public CallId {
    if (call < 1 || lowestOutstanding < 1 || lowestOutstanding > call) {
      throw new IllegalArgumentException("call id " + call + " with lowest outstanding id " + lowestOutstanding
          + ": both must be at least 1, and the lowest outstanding at most the call's own");
    }
  }

  /** The client's id as 32 hex digits (messages, logs). */
  public String client() {
    return String.format("%016x%016x", clientHigh, clientLow);
  }

  @Override
  public String toString() {
    return "call " + call + " of client " + client();
  }
}
