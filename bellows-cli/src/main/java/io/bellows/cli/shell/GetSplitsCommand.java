package io.bellows.cli.shell;

import io.bellows.engine.RegionInfo;
import io.bellows.util.Bytes;
import java.util.List;

/**
 * {@code get_splits}: the table's split keys as HBase's shell prints them: {@code Total number of
 * splits = N}, N being the number of regions (split keys + 1, as HBase counts), then each split key
 * (the start key of every region but the first) on its own line, printable.
 */
public record GetSplitsCommand(String table) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    ctx.requireEnabledTable(table, List.of()); // as HBase: a disabled table's regions are not served
    List<RegionInfo> regions = ctx.engine().regions(table);
    ctx.printer().line("Total number of splits = " + regions.size());
    for (RegionInfo r : regions) {
      if (r.startKey().length > 0) {
        ctx.printer().line(Bytes.toStringBinary(r.startKey()));
      }
    }
  }
}
