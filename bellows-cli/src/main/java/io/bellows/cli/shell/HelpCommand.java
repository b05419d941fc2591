package io.bellows.cli.shell;

/** {@code help}: lists the commands, or explains one. */
public record HelpCommand(String command) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    if (command == null) {
      ctx.printer().line(CommandCatalog.overview());
      return;
    }
    CommandCatalog.Entry e = CommandCatalog.find(command);
    if (e == null && CommandCatalog.isUnsupported(command)) {
      throw CommandCatalog.unsupported(command);
    }
    if (e == null) {
      throw new ShellException("Unknown command '" + command + "'. Type 'help' for the list of commands.");
    }
    ctx.printer().line(e.details());
  }
}
