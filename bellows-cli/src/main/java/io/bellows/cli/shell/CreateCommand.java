package io.bellows.cli.shell;

import io.bellows.schema.TableDescriptor;
import java.util.List;

/** {@code create}: creates the described table, pre-split at {@code splitKeys} if there are any. */
public record CreateCommand(TableDescriptor descriptor, List<byte[]> splitKeys) implements Command {
  public CreateCommand {
    splitKeys = List.copyOf(splitKeys);
  }

  /** A table of one region. */
  public CreateCommand(TableDescriptor descriptor) {
    this(descriptor, List.of());
  }

  @Override
  public void execute(ShellContext ctx) {
    if (ctx.engine().tableExists(descriptor.name())) {
      throw new ShellException("Table already exists: " + descriptor.name() + "!");
    }
    if (splitKeys.isEmpty()) {
      ctx.engine().createTable(descriptor);
    } else {
      ctx.engine().createTable(descriptor, splitKeys);
    }
    ctx.printer().line("Created table " + descriptor.name());
  }
}
