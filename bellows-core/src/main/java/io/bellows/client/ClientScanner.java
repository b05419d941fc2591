package io.bellows.client;

import io.bellows.cell.Cell;
import io.bellows.region.RegionClosedException;
import io.bellows.region.RegionScanner;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link ResultScanner} over a region scanner: one {@link Result} per row. Fails, like the
 * table's other calls, once the engine is closed or the table disabled or dropped. Not thread-safe.
 */
final class ClientScanner implements ResultScanner {
  private final RegionScanner scanner;
  private final TableImpl table;
  private boolean closed;

  ClientScanner(RegionScanner scanner, TableImpl table) {
    this.scanner = scanner;
    this.table = table;
  }

  @Override
  public Result next() {
    if (closed) {
      return null;
    }
    List<Cell> cells = new ArrayList<>();
    boolean more;
    try {
      more = scanner.nextRow(cells);
    } catch (RegionClosedException e) {
      close();
      throw table.closed(e);
    }
    if (!more) {
      close();
      return null;
    }
    return new Result(cells.get(0).row(), cells);
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      scanner.close();
    }
  }
}
