package io.bellows.cli.shell;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

/** {@code list}: prints the table names, all or those matching a regular expression. */
public record ListCommand(Pattern filter) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    List<String> names = new ArrayList<>();
    for (String n : ctx.engine().listTables()) {
      if (filter == null || filter.matcher(n).matches()) {
        names.add(n);
      }
    }
    Collections.sort(names);
    ctx.printer().line("TABLE");
    names.forEach(ctx.printer()::line);
    ctx.printer().footer(names.size());
  }
}
