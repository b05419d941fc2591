package io.bellows.client;

import io.bellows.cell.Cell;
import io.bellows.scan.RowScanner;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link ResultScanner} over the engine's rows: one {@link Result} per row. Fails, like the
 * table's other calls, once the engine is closed or the table disabled or dropped. Not thread-safe.
 */
final class ClientScanner implements ResultScanner {
  private final RowScanner scanner;
  private boolean closed;

  ClientScanner(RowScanner scanner) {
    this.scanner = scanner;
  }

  @Override
  public Result next() {
    if (closed) {
      return null;
    }
    List<Cell> cells = new ArrayList<>();
    if (!scanner.nextRow(cells)) {
      close();
      return null;
    }
    return new Result(cells.get(0).row(), cells, scanner.mayBeStale());
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      scanner.close();
    }
  }
}
