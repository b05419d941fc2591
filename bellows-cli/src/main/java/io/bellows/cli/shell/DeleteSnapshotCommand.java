package io.bellows.cli.shell;

/** {@code delete_snapshot 's1'}: deletes a snapshot; the tables are not touched. Prints nothing. */
public record DeleteSnapshotCommand(String name) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    ctx.requireSnapshot(name);
    ctx.engine().deleteSnapshot(name);
  }
}
