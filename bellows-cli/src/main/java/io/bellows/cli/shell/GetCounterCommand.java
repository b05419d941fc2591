package io.bellows.cli.shell;

import io.bellows.client.Get;
import io.bellows.util.Bytes;
import java.util.Set;

/** {@code get_counter}: prints the value of a counter column. */
public record GetCounterCommand(String table, byte[] row, byte[] family, byte[] qualifier) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    byte[] v = ctx.requireEnabledTable(table, Set.of(Bytes.str(family)))
        .get(new Get(row).addColumn(family, qualifier))
        .getValue(family, qualifier);
    if (v == null) {
      ctx.printer().line("No counter found at specified coordinates");
    } else if (v.length != 8) {
      throw new ShellException("the value of " + Bytes.toStringBinary(family) + ":" + Bytes.toStringBinary(qualifier)
          + " is " + v.length + " bytes long, not a counter (a counter is 8 bytes)");
    } else {
      ctx.printer().line("COUNTER VALUE = " + Bytes.getLong(v, 0));
    }
  }
}
