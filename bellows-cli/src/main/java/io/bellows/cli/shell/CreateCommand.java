package io.bellows.cli.shell;

import io.bellows.schema.TableDescriptor;

/** {@code create}: creates the described table. */
public record CreateCommand(TableDescriptor descriptor) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    if (ctx.engine().tableExists(descriptor.name())) {
      throw new ShellException("Table already exists: " + descriptor.name() + "!");
    }
    ctx.engine().createTable(descriptor);
    ctx.printer().line("Created table " + descriptor.name());
  }
}
