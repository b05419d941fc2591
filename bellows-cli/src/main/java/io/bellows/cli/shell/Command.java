package io.bellows.cli.shell;

/**
 * One translated shell command, ready to run: the arguments are already checked and turned into
 * API objects, so running it makes (at most) the engine calls the command stands for.
 */
public interface Command {
  /**
   * Runs against the engine of {@code ctx} and prints the result to its output.
   *
   * @throws ShellException for a refusal the user should see (unknown table, ...)
   */
  void execute(ShellContext ctx);
}
