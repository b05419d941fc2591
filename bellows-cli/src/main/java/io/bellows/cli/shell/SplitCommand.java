package io.bellows.cli.shell;

/**
 * {@code split 't'} and {@code split 't', 'key'}: splits the table's region that holds the most
 * data at its middle key, or the region holding {@code key} at it (HBase's syntax; HBase's forms
 * naming a region instead of a table are not supported).
 */
public record SplitCommand(String table, byte[] splitKey) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    ctx.requireTable(table);
    if (splitKey == null) {
      ctx.engine().split(table);
    } else {
      ctx.engine().split(table, splitKey);
    }
  }
}
