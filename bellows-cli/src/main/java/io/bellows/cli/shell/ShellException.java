package io.bellows.cli.shell;

/**
 * A command the shell refuses (bad arguments, unknown table or family, ...). The shell prints the
 * message after {@code ERROR: } and reads the next command; nothing was applied.
 */
public class ShellException extends RuntimeException {
  public ShellException(String message) {
    super(message);
  }
}
