package io.bellows.cli.shell;

import io.bellows.client.Put;
import java.util.Set;

/** {@code put}: writes one cell. */
public record PutCommand(String table, Put put) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    ctx.requireEnabledTable(table, MutationFamilies.of(put)).put(put);
  }

  /** The families the put writes. */
  public Set<String> families() {
    return MutationFamilies.of(put);
  }
}
