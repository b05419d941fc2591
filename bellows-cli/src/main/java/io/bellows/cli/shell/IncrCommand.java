package io.bellows.cli.shell;

import io.bellows.util.Bytes;
import java.util.Set;

/** {@code incr}: adds to a counter column and prints the new value. */
public record IncrCommand(String table, byte[] row, byte[] family, byte[] qualifier, long amount) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    long v = ctx.requireEnabledTable(table, Set.of(Bytes.str(family)))
        .incrementColumnValue(row, family, qualifier, amount);
    ctx.printer().line("COUNTER VALUE = " + v);
  }
}
