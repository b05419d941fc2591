package io.bellows.server;

/**
 * What the server tells about its streams as they happen: for monitoring and for tests that must
 * wait for a state rather than for time. Called on the server's call threads; implementations must
 * be quick and thread-safe. The defaults do nothing.
 */
public interface ServerEvents {
  ServerEvents NONE = new ServerEvents() {};

  /** A scan started: it holds its admission slot and counts among the open scans until it ends. */
  default void scanStarted() {}

  /**
   * A scan stopped reading because the client has not taken what was sent (the transport's flow
   * control window is full); it goes on when the client reads. {@code rowsSent}: rows sent so far.
   */
  default void scanPaused(long rowsSent) {}

  /** A scan's engine scanner was closed: finished, failed or cancelled (deadline, client gone). */
  default void scanClosed(long rowsSent, boolean cancelled) {}

  /**
   * A scan's lease ran out (its client read nothing for {@code scanner.lease.ms}): the scan is
   * closed, its admission slot given back and its client told, all before this is called.
   */
  default void scanLeaseExpired(long rowsSent) {}
}
