package io.bellows.client;

import io.bellows.cell.Cell;
import io.bellows.region.RegionScanner;
import java.util.ArrayList;
import java.util.List;

/** A {@link ResultScanner} over a region scanner: one {@link Result} per row. Not thread-safe. */
final class ClientScanner implements ResultScanner {
  private final RegionScanner scanner;
  private boolean closed;

  ClientScanner(RegionScanner scanner) {
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
