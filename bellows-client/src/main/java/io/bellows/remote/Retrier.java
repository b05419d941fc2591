package io.bellows.remote;

import io.bellows.wire.ErrorKind;
import io.bellows.wire.WireErrors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Runs one remote call with retries: a call that fails with UNAVAILABLE, or that the server
 * throttled (RESOURCE_EXHAUSTED, kind THROTTLED), is tried again after a pause (exponential backoff with jitter, at least the server's hint) when
 * that is safe: the call is idempotent (reads, table lookups), or the server said that nothing of
 * it was applied (writes refused while writes are stopped, throttled calls, calls refused by a
 * stopping server). A write that failed in transit is not retried: it may have been applied.
 * Other errors become the engine's exceptions at once. Thread-safe (immutable).
 */
final class Retrier {
  private final RemoteOptions options;

  Retrier(RemoteOptions options) {
    this.options = options;
  }

  <T> T call(boolean idempotent, Supplier<T> attempt) {
    for (int n = 1; ; n++) {
      try {
        return attempt.get();
      } catch (StatusRuntimeException e) {
        if (n >= options.maxAttempts() || !retryable(e, idempotent)) {
          throw WireErrors.toException(e);
        }
        pause(n, WireErrors.retryAfterMillis(e), e);
      }
    }
  }

  /**
   * For a read that failed after it had started (a scan's stream): whether to try again, having
   * paused as {@link #call} would. {@code attempt} counts the failures so far, from 1.
   */
  boolean pauseBeforeRetry(StatusRuntimeException e, int attempt) {
    if (attempt >= options.maxAttempts() || !retryable(e, true)) {
      return false;
    }
    pause(attempt, WireErrors.retryAfterMillis(e), e);
    return true;
  }

  static boolean retryable(StatusRuntimeException e, boolean idempotent) {
    Status.Code code = e.getStatus().getCode();
    if (code != Status.Code.UNAVAILABLE && code != Status.Code.RESOURCE_EXHAUSTED) {
      return false;
    }
    ErrorKind kind = WireErrors.kind(e);
    if (kind == ErrorKind.ENGINE_CLOSED) {
      return false; // the server is stopping: say so rather than wait for it
    }
    if (kind == ErrorKind.NOT_LEADER) {
      return false; // another server leads: the caller goes there (RemoteCluster), asking this one again changes nothing
    }
    if (code == Status.Code.RESOURCE_EXHAUSTED && kind != ErrorKind.THROTTLED) {
      return false; // gRPC's own limits (a message too large): trying again changes nothing
    }
    return idempotent || WireErrors.certainlyNotApplied(e);
  }

  private void pause(int attempt, long hintMillis, StatusRuntimeException cause) {
    long base = options.initialBackoff().toMillis() << Math.min(attempt - 1, 20);
    long capped = Math.min(base, options.maxBackoff().toMillis());
    // Full jitter over the upper half, so that clients refused together do not return together.
    long millis = Math.max(hintMillis, capped / 2 + ThreadLocalRandom.current().nextLong(capped / 2 + 1));
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw WireErrors.toException(cause);
    }
  }
}
