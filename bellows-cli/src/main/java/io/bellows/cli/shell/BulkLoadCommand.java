package io.bellows.cli.shell;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code bulk_load 't', 'DIR'}: loads the sorted files of {@code DIR/family/...} (see {@link
 * BulkLoadDirectory}) into the table, atomically, and prints how many cells and files.
 */
public record BulkLoadCommand(String table, Path dir) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    ctx.requireTable(table);
    Map<String, List<Path>> files = BulkLoadDirectory.read(dir);
    ctx.requireEnabledTable(table, files.keySet());
    long cells = ctx.engine().bulkLoad(table, files);
    ctx.printer().line("Loaded " + cells + " cell(s) from " + BulkLoadDirectory.count(files) + " file(s) into table "
        + table);
  }
}
