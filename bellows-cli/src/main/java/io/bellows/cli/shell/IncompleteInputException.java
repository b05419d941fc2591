package io.bellows.cli.shell;

/**
 * The statement ended while a string, hash or array was still open, or right after a comma or
 * {@code =>}: as in Ruby, the shell then reads the next line as a continuation.
 */
public final class IncompleteInputException extends ParseException {
  public IncompleteInputException(String message, int column) {
    super(message, column);
  }
}
