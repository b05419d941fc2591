package io.bellows.record;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Records for tests of the record's bytes, here and where a log carries them. */
public final class RecordFixtures {
  private RecordFixtures() {}

  /**
   * Region 7, sequence id 2^31 + 1, 2 cells: r/f:q @5 PUT "v" (flags, row, family, qualifier,
   * timestamp, value) and r/f:q2 @5 DELETE_COLUMN with no value (flags saying row, family and
   * timestamp repeat, qualifier, value). The WAL's golden record carries these bytes as its payload.
   */
  public static final String GOLDEN = "00000007000000008000000100000002" + "0401720166017100000000000000050176"
      + "7c02713200";

  /** Cells of a few rows, families and timestamps, so every flag combination comes up. */
  public static WriteRecord randomRecord(Random random) {
    int n = random.nextInt(8);
    List<Cell> cells = new ArrayList<>(n);
    CellType[] types = {CellType.PUT, CellType.DELETE, CellType.DELETE_COLUMN, CellType.DELETE_FAMILY};
    for (int i = 0; i < n; i++) {
      byte[] row = Bytes.of("row" + random.nextInt(3));
      byte[] family = Bytes.of("f" + random.nextInt(2));
      byte[] qualifier = new byte[random.nextInt(200)];
      random.nextBytes(qualifier);
      byte[] value = new byte[random.nextInt(3) == 0 ? 300 : random.nextInt(5)];
      random.nextBytes(value);
      long ts = random.nextBoolean() ? 5 : random.nextLong() & Long.MAX_VALUE;
      cells.add(Cells.create(row, family, qualifier, ts, types[random.nextInt(types.length)], value));
    }
    return new WriteRecord(random.nextInt(), random.nextLong() & Long.MAX_VALUE, cells);
  }
}
