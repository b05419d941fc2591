package io.bellows.bench;

import io.bellows.client.Put;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Builds the Accordion paper's rows as client {@link Put}s for the engine benchmarks: the same row
 * keys, family, qualifiers and 25-byte values as {@link PaperRows} (4 cells, 100 value bytes per
 * put). The engine stamps the timestamp. Every put gets fresh arrays (the client API keeps them),
 * taken from a pre-filled random pool so that making a put costs the same for every configuration.
 *
 * <p>Not thread-safe (owns a random source and a {@link PaperRows}): one per writer thread.
 */
final class PaperPuts {
  private static final int VALUE_POOL = 64 * 1024;

  private final PaperRows rows;
  private final byte[] valuePool = new byte[VALUE_POOL + PaperRows.VALUE_LENGTH];
  private final SplittableRandom random;

  PaperPuts(long seed) {
    this.rows = new PaperRows(seed);
    this.random = new SplittableRandom(seed ^ 0x5DEECE66DL);
    random.nextBytes(valuePool);
  }

  /** The four-column put of row {@code rowId}. */
  Put put(long rowId) {
    Put p = new Put(rows.rowKey(rowId));
    for (int q = 0; q < PaperRows.CELLS_PER_ROW; q++) {
      int off = random.nextInt(VALUE_POOL);
      p.addColumn(PaperRows.FAMILY, PaperRows.qualifier(q),
          Arrays.copyOfRange(valuePool, off, off + PaperRows.VALUE_LENGTH));
    }
    return p;
  }

  /** The row key of {@code rowId}, freshly allocated. */
  byte[] rowKey(long rowId) {
    return rows.rowKey(rowId);
  }
}
