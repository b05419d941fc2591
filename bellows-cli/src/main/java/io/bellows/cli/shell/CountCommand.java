package io.bellows.cli.shell;

import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.filter.Filter;
import io.bellows.util.Bytes;
import java.util.List;

/**
 * {@code count}: counts rows (those the filter keeps, if one is given), printing progress every
 * {@code interval} rows as HBase does.
 */
public record CountCommand(String table, long interval, Filter filter) implements Command {
  public CountCommand(String table, long interval) {
    this(table, interval, null);
  }

  @Override
  public void execute(ShellContext ctx) {
    long rows = 0;
    Scan scan = new Scan().setFilter(filter);
    try (ResultScanner scanner = ctx.requireEnabledTable(table, List.of()).getScanner(scan)) {
      for (Result r = scanner.next(); r != null; r = scanner.next()) {
        rows++;
        if (rows % interval == 0) {
          ctx.printer().line("Current count: " + rows + ", row: " + Bytes.toStringBinary(r.row()));
        }
      }
    }
    ctx.printer().footer(rows);
  }
}
