package io.bellows.util;

/**
 * A write refused, with nothing of it applied, because the engine stopped accepting writes after a
 * background error ({@link #reason()}, always {@link BackgroundError.Severity#HARD}). Reads keep
 * working. Writes resume when the error clears: for a failing flush, when a background retry or
 * {@code Bellows.resume()} succeeds; for a failed write-ahead log, when resume() recovers it or the engine is reopened.
 */
public class WritesStoppedException extends StorageException {
  private final transient BackgroundError reason;

  public WritesStoppedException(String message, BackgroundError reason, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  /** The background error that stopped writes. */
  public BackgroundError reason() {
    return reason;
  }
}
