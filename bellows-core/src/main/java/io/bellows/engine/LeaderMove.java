package io.bellows.engine;

/**
 * What {@link Engine#moveLeader} did: the member that led the region when the call came ({@code
 * from}) and the one that leads it now ({@code to}); the same member when it led already and
 * nothing was handed over.
 */
public record LeaderMove(String from, String to) {
  /** Whether the leadership was handed over by the call (false: {@code to} led the region already). */
  public boolean moved() {
    return !from.equals(to);
  }
}
