package io.bellows.cli.shell;

import io.bellows.cell.Cell;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.util.Bytes;

/** {@code scan}: prints the cells of a range of rows, one line per cell version. */
public record ScanCommand(String table, Scan scan) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    TablePrinter p = ctx.printer();
    long rows = 0;
    try (ResultScanner scanner = ctx.requireEnabledTable(table, scan.columns().keySet()).getScanner(scan)) {
      p.header("ROW", "COLUMN+CELL");
      for (Result r = scanner.next(); r != null; r = scanner.next()) {
        String row = Bytes.toStringBinary(r.row());
        for (Cell c : r.cells()) {
          p.row(row, "column=" + TablePrinter.column(c) + ", " + TablePrinter.timestampAndValue(c));
        }
        rows++;
      }
    }
    p.footer(rows);
  }
}
