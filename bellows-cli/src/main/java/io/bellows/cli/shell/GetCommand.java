package io.bellows.cli.shell;

import io.bellows.cell.Cell;
import io.bellows.client.Get;
import io.bellows.client.Result;

/** {@code get}: prints the cells of one row, one line per cell version. */
public record GetCommand(String table, Get get) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    Result r = ctx.requireEnabledTable(table, get.columns().keySet()).get(get);
    TablePrinter p = ctx.printer();
    p.header("COLUMN", "CELL");
    for (Cell c : r.cells()) {
      p.row(TablePrinter.column(c), TablePrinter.timestampAndValue(c));
    }
    p.footer(r.size());
  }
}
