package io.bellows.cli.shell;

/** Malformed shell input; the message names the 1-based column where reading failed. */
public class ParseException extends Exception {
  private final int column;

  public ParseException(String message, int column) {
    super("syntax error at column " + column + ": " + message);
    this.column = column;
  }

  /** 1-based position in the statement text (lines joined with '\n' count as one character). */
  public int column() {
    return column;
  }
}
