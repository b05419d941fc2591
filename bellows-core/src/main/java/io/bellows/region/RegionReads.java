package io.bellows.region;

import io.bellows.cell.Cell;
import io.bellows.scan.ScanQuery;
import java.util.ArrayList;
import java.util.List;

/**
 * The read path of a region: scanners at the current read point, registered so that flushes and
 * compactions keep what they can see, and the writers' own reads under the row lock, which see
 * every completed write of the row.
 */
final class RegionReads {
  private final Region region;
  private final ReadPoints readPoints;

  RegionReads(Region region, ReadPoints readPoints) {
    this.region = region;
    this.readPoints = readPoints;
  }

  /** Opens a scanner at the current read point; the caller closes it. */
  RegionScanner scanner(ScanQuery query) {
    region.checkOpen();
    ReadPoints.Reader reader = readPoints.open();
    long rp = reader.readPoint();
    try {
      return new RegionScanner(region, query.toBuilder().readPoint(rp).build(), rp, reader);
    } catch (RuntimeException e) {
      readPoints.close(reader);
      throw e;
    }
  }

  void readerClosed(ReadPoints.Reader reader) {
    readPoints.close(reader);
  }

  /** The newest visible cell of a column including all completed writes (caller holds the row lock). */
  Cell latestCell(byte[] row, byte[] family, byte[] qualifier) {
    List<Cell> cells = readLatest(ScanQuery.builder().singleRow(row).addColumn(family, qualifier)
        .readPoint(Long.MAX_VALUE).build());
    return cells.isEmpty() ? null : cells.get(0);
  }

  /** A single-row read including all completed writes (caller holds the row lock). */
  List<Cell> readLatest(ScanQuery q) {
    List<Cell> cells = new ArrayList<>();
    try (RegionScanner s = new RegionScanner(region, q, Long.MAX_VALUE, null)) {
      s.nextRow(cells);
    }
    return cells;
  }
}
