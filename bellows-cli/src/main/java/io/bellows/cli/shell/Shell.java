package io.bellows.cli.shell;

import io.bellows.engine.Engine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * The read-execute-print loop. Reads statements line by line (a line ending inside a string,
 * array, hash or call parentheses, or after a comma, continues on the next line, unless the
 * continuation is a syntax error and the next line begins a command: then the unfinished statement
 * is reported and the next line read as a new one), parses, translates and runs each,
 * and prints {@code ERROR: ...} for any refusal or failure before going on with the next one.
 * With a prompt when interactive; after each command a {@code Took N seconds} line unless timing
 * is off. Single-threaded: one shell runs on the thread that calls {@link #run()}.
 */
public final class Shell {
  private final ShellContext ctx;
  private final BufferedReader in;
  private final PrintStream out;
  private final boolean interactive;
  private final boolean timing;
  private int statementNumber;
  private boolean anyFailed;

  /**
   * @param engine the engine, embedded ({@code LocalEngine}) or a server's ({@code RemoteEngine})
   * @param session who runs the shell on it, for {@code whoami}
   * @param interactive print prompts (and a greeting) for a person at a terminal
   * @param timing print {@code Took N seconds} after each command
   */
  public Shell(Engine engine, Session session, BufferedReader in, PrintStream out, boolean interactive,
      boolean timing) {
    this.ctx = new ShellContext(engine, session, out);
    this.in = in;
    this.out = out;
    this.interactive = interactive;
    this.timing = timing;
  }

  /**
   * Runs until {@code exit}, {@code quit} or the end of input. Does not close the engine.
   *
   * @return 0 if every command succeeded, 1 if any failed (for scripts)
   */
  public int run() {
    if (interactive) {
      out.println("Bellows shell; enter 'help' for the list of commands, 'exit' to leave.");
    }
    StringBuilder pending = new StringBuilder();
    String retry = null; // a line to read again as the start of a new statement
    while (!ctx.exitRequested()) {
      if (interactive && retry == null) {
        out.printf(Locale.ROOT, "bellows:%03d%s ", statementNumber + 1, pending.length() == 0 ? ">" : "*");
        out.flush();
      }
      String line = retry != null ? retry : readLine();
      retry = null;
      if (line == null) {
        if (pending.length() > 0) {
          // The input ended inside a statement: report what the parser says is missing.
          execute(pending.toString());
        }
        break;
      }
      String previous = pending.toString();
      if (pending.length() > 0) {
        pending.append('\n');
      }
      pending.append(line);
      ParsedCommand parsed;
      try {
        parsed = StatementParser.parse(pending.toString());
      } catch (IncompleteInputException e) {
        continue;
      } catch (ParseException e) {
        statementNumber++;
        pending.setLength(0);
        if (abandons(previous, line, e)) {
          // An unfinished statement (say a missing ')') followed by a line that begins a command:
          // Ruby would read on, but a typo must not swallow the next command. Report the
          // unfinished one, then read the line again on its own.
          fail(incompleteReason(previous) + " (at the end of the line; the next line starts a new command)");
          retry = line;
        } else {
          fail(e.getMessage());
        }
        continue;
      }
      pending.setLength(0);
      if (parsed != null) {
        statementNumber++;
        run(parsed);
      }
    }
    out.flush();
    return anyFailed ? 1 : 0;
  }

  /** Parses and runs one complete statement (as the loop does); for an incomplete one, an error. */
  public void execute(String statement) {
    ParsedCommand parsed;
    try {
      parsed = StatementParser.parse(statement);
    } catch (ParseException e) {
      fail(e.getMessage());
      return;
    }
    if (parsed != null) {
      run(parsed);
    }
  }

  /**
   * Whether a failed continuation is rather an unfinished statement followed by a new one: the
   * error lies in the added line, and that line begins with a command name.
   */
  private static boolean abandons(String previous, String line, ParseException e) {
    return !previous.isEmpty() && e.column() > previous.length() + 1 && CommandCatalog.startsCommand(line);
  }

  /** The parser's explanation of why a statement is incomplete. */
  private static String incompleteReason(String statement) {
    try {
      StatementParser.parse(statement);
    } catch (ParseException e) {
      return e.getMessage();
    }
    return "incomplete statement"; // not reached: the statement was incomplete
  }

  /** Whether any command so far failed. */
  public boolean anyFailed() {
    return anyFailed;
  }

  private void run(ParsedCommand parsed) {
    long start = System.nanoTime();
    try {
      Command c = CommandTranslator.translate(parsed);
      c.execute(ctx);
      if (c instanceof ExitCommand) {
        return; // no timing line for leaving
      }
    } catch (UsageException e) {
      fail(e.getMessage());
      CommandCatalog.Entry entry = CommandCatalog.find(e.command());
      if (entry != null) {
        out.println("Usage: " + entry.usage());
      }
    } catch (ShellException | IllegalArgumentException e) {
      fail(e.getMessage());
    } catch (RuntimeException e) {
      // Engine failures: their messages and those of their causes, without Java class names.
      fail(ErrorMessages.describe(e));
    }
    if (timing) {
      out.printf(Locale.ROOT, "Took %.4f seconds%n", (System.nanoTime() - start) / 1e9);
    }
    out.flush();
  }

  private void fail(String message) {
    anyFailed = true;
    out.println("ERROR: " + message);
  }

  private String readLine() {
    try {
      return in.readLine();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
