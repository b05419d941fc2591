package io.bellows.cli.shell;

import io.bellows.engine.Engine;
import io.bellows.engine.SnapshotInfo;

/**
 * {@code restore_snapshot 's1'}: brings the table the snapshot was taken of back to it. As in
 * HBase the table must be disabled first (and stays disabled); a dropped table is created again,
 * enabled. Prints nothing.
 */
public record RestoreSnapshotCommand(String name) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    SnapshotInfo s = ctx.requireSnapshot(name);
    Engine e = ctx.engine();
    if (e.tableExists(s.table()) && e.isTableEnabled(s.table())) {
      throw new ShellException("Table " + s.table() + " is enabled. Disable it before restoring snapshot " + name
          + " into it.");
    }
    e.restoreSnapshot(name);
  }
}
