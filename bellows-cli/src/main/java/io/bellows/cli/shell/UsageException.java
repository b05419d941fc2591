package io.bellows.cli.shell;

/** Arguments that do not fit the command; the shell prints the command's usage after the error. */
public final class UsageException extends ShellException {
  private final String command;

  public UsageException(String command, String message) {
    super(message);
    this.command = command;
  }

  /** The command whose usage to show. */
  public String command() {
    return command;
  }
}
