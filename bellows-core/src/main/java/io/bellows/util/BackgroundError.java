package io.bellows.util;

import java.time.Instant;
import java.util.Objects;

/**
 * The engine's background-error state, when it is not "no error": background work that failed and
 * is being retried. A value; the engine hands out a new one whenever the state changes.
 *
 * <p>Severity {@link Severity#SOFT}: the work is retried with backoff and writes are still accepted
 * (a failing compaction, or a flush that has not failed persistently yet). {@link Severity#HARD}:
 * the engine refuses every write with a {@link WritesStoppedException} naming this error, nothing of
 * it applied; reads keep working. A HARD flush error clears when a retry succeeds — the engine's
 * own, or {@code Bellows.resume()}; a HARD WAL error by {@code resume()} recovering the log or a reopen;
 * a {@link Kind#CORRUPTION} error stops writes to one store only (see {@link #stopsWrites}) and clears
 * only when the file is set aside. See
 * docs/ARCHITECTURE.md, "Background errors".
 *
 * @param kind what failed
 * @param severity whether writes are still accepted
 * @param table the table whose work failed; null for {@link Kind#WAL}, which is engine-wide
 * @param message why the last attempt failed, in words (the cause's messages, outermost first)
 * @param since when the work started failing (the engine clock), the first failed attempt
 * @param attempts failed attempts in a row so far, at least 1
 */
public record BackgroundError(Kind kind, Severity severity, String table, String message, Instant since,
    int attempts) {
  /** What kind of background work failed. */
  public enum Kind {
    /** Writing a memory store to a sorted file. */
    FLUSH,
    /** Merging sorted files. */
    COMPACTION,
    /** Appending to or syncing the write-ahead log (a writer's work, but it stops every writer). */
    WAL,
    /**
     * A damaged sorted file met by background work (a compaction): HARD at once and never retried;
     * it stops writes to the damaged file's store only (the other stores and tables go on), until
     * {@code bellows repair --fix} sets the file aside and the engine is reopened.
     */
    CORRUPTION
  }

  /** Whether writes are still accepted. */
  public enum Severity {
    /** Retrying; writes still accepted. */
    SOFT,
    /** Writes stopped until the error clears. */
    HARD
  }

  public BackgroundError {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(since, "since");
  }

  /**
   * Whether the engine refuses every write while this error lasts. A {@link Kind#CORRUPTION} error
   * is HARD but refuses only the writes to the damaged file's store: false here.
   */
  public boolean stopsWrites() {
    return severity == Severity.HARD && kind != Kind.CORRUPTION;
  }

  /** One line for logs and exception messages, e.g. "flush of table 't' failing (5 attempts since ...): ...". */
  public String describe() {
    String what = switch (kind) {
      case FLUSH -> "background flush of table '" + table + "'";
      case COMPACTION -> "background compaction of table '" + table + "'";
      case WAL -> "the write-ahead log";
      case CORRUPTION -> "a damaged file in table '" + table + "'";
    };
    if (kind == Kind.CORRUPTION) {
      return what + " (found " + since + "): " + message;
    }
    return what + " failed (" + attempts + (attempts == 1 ? " attempt" : " attempts") + " since " + since
        + "): " + message;
  }

  /**
   * The messages of an exception and its causes, outermost first, each once (a wrapper that repeats
   * its cause's message adds nothing): what a {@link BackgroundError} says about its cause.
   */
  public static String messageOf(Throwable t) {
    StringBuilder sb = new StringBuilder();
    for (Throwable c = t; c != null && c.getCause() != c; c = c.getCause()) {
      String m = c instanceof java.io.IOException io ? StorageException.reason(io) : c.getMessage();
      if (m == null || m.isEmpty() || sb.indexOf(m) >= 0) {
        continue;
      }
      if (sb.length() > 0) {
        sb.append(": ");
      }
      sb.append(m);
    }
    return sb.length() == 0 ? t.getClass().getSimpleName() : sb.toString();
  }
}
