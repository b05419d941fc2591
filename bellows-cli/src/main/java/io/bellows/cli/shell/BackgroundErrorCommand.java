package io.bellows.cli.shell;

import io.bellows.util.BackgroundError;
import java.util.Optional;

/**
 * {@code background_error}: prints the failing background work that matters most — its kind
 * (FLUSH, COMPACTION, WAL), whether writes are stopped (HARD) or still accepted while it is retried
 * (SOFT), the table, since when, after how many attempts, and why — or that there is none. A
 * damaged file (CORRUPTION) stops writes to its store only, and is never retried: said so.
 */
public record BackgroundErrorCommand() implements Command {
  @Override
  public void execute(ShellContext ctx) {
    Optional<BackgroundError> e = ctx.engine().backgroundError();
    if (e.isEmpty()) {
      ctx.printer().line("No background error: flushes and compactions work, writes are accepted");
      return;
    }
    ctx.printer().line(describe(e.get()));
  }

  /** One line: whether writes are stopped, by what failing work, since when, how often tried, why. */
  static String describe(BackgroundError b) {
    if (b.kind() == BackgroundError.Kind.CORRUPTION) {
      return "WRITES TO ONE STORE STOPPED by a damaged file of table " + b.table() + " found " + b.since() + ": "
          + b.message();
    }
    return (b.severity() == BackgroundError.Severity.HARD ? "WRITES STOPPED" : "Writes accepted")
        + " by a failing " + b.kind() + (b.table() == null ? "" : " of table " + b.table()) + " since " + b.since()
        + " (" + b.attempts() + " attempt(s)): " + b.message();
  }
}
