package io.bellows.cli.shell;

/** {@code clone_snapshot 's1', 't2'}: a new, enabled table of a snapshot. Prints nothing, as HBase. */
public record CloneSnapshotCommand(String name, String table) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    ctx.requireSnapshot(name);
    if (ctx.engine().tableExists(table)) {
      throw new ShellException("Table already exists: " + table + "!");
    }
    ctx.engine().cloneSnapshot(name, table);
  }
}
