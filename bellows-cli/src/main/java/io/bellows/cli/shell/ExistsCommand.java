package io.bellows.cli.shell;

/** {@code exists}: says whether the table exists. */
public record ExistsCommand(String table) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    boolean exists = ctx.engine().tableExists(table);
    ctx.printer().line("Table " + table + (exists ? " does exist" : " does not exist"));
  }
}
