package io.bellows.cli.shell;

/** {@code exit} / {@code quit}: ends the shell, which then closes the engine. */
public record ExitCommand() implements Command {
  @Override
  public void execute(ShellContext ctx) {
    ctx.requestExit();
  }
}
