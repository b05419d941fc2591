package io.bellows.cli.shell;

/**
 * {@code snapshot 't', 's1' [, {SKIP_FLUSH => true}]}: takes a snapshot of the table, flushing it
 * first unless {@code flush} is false. Prints nothing, as HBase.
 */
public record SnapshotCommand(String table, String name, boolean flush) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    ctx.requireTable(table);
    if (ctx.engine().listSnapshots().stream().anyMatch(s -> s.name().equals(name))) {
      throw new ShellException("Snapshot " + name + " already exists!");
    }
    ctx.engine().snapshot(table, name, flush);
  }
}
