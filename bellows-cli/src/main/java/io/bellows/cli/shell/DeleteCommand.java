package io.bellows.cli.shell;

import io.bellows.client.Delete;

/** {@code delete} and {@code deleteall}: writes the tombstones of one {@link Delete}. */
public record DeleteCommand(String table, Delete delete) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    ctx.requireEnabledTable(table, MutationFamilies.of(delete)).delete(delete);
  }
}
