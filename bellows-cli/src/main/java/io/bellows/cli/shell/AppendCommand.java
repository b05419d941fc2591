package io.bellows.cli.shell;

import io.bellows.client.Append;
import io.bellows.util.Bytes;
import java.util.Set;

/**
 * {@code append}: appends bytes to a column's newest value (an absent column counts as empty),
 * atomically, and prints the new value as HBase's shell does ({@code CURRENT VALUE = ...}).
 */
public record AppendCommand(String table, byte[] row, byte[] family, byte[] qualifier, byte[] suffix) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    byte[] v = ctx.requireEnabledTable(table, Set.of(Bytes.str(family)))
        .append(new Append(row).addColumn(family, qualifier, suffix))
        .getValue(family, qualifier);
    ctx.printer().line("CURRENT VALUE = " + (v == null ? "" : Bytes.toStringBinary(v)));
  }
}
