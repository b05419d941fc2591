package io.bellows.bench;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.util.Bytes;
import java.util.SplittableRandom;

/**
 * Builds the rows of the Accordion paper's workload (VLDB 2018, §4.1): one column family, four
 * columns, 25-byte values, so a put writes 4 cells and 100 bytes of value. Row keys look like YCSB's:
 * {@code "user"} followed by the row id as 20 decimal digits (24 bytes). Values are random bytes
 * taken at random offsets from a pre-filled pool, so making a cell costs one array (the cell's own
 * serialized bytes) and nothing else.
 *
 * <p>Not thread-safe (reuses a row-key buffer and owns a random source): one per writer thread.
 */
public final class PaperRows {
  public static final int CELLS_PER_ROW = 4;
  public static final int VALUE_LENGTH = 25;
  public static final byte[] FAMILY = Bytes.of("f");
  private static final byte[][] QUALIFIERS = {
    Bytes.of("field0"), Bytes.of("field1"), Bytes.of("field2"), Bytes.of("field3")
  };
  private static final int KEY_DIGITS = 20;
  private static final byte[] KEY_PREFIX = Bytes.of("user");
  private static final int VALUE_POOL = 64 * 1024;
  /** Bytes of every row key: {@code "user"} and 20 digits. */
  static final int ROW_KEY_LENGTH = KEY_PREFIX.length + KEY_DIGITS;

  private final byte[] rowKey = new byte[KEY_PREFIX.length + KEY_DIGITS];
  private final byte[] valuePool = new byte[VALUE_POOL + VALUE_LENGTH];
  private final SplittableRandom random;

  public PaperRows(long seed) {
    this.random = new SplittableRandom(seed);
    random.nextBytes(valuePool);
    System.arraycopy(KEY_PREFIX, 0, rowKey, 0, KEY_PREFIX.length);
  }

  /** Serialized bytes of one cell of this workload. */
  public static int cellLength() {
    return Cells.serializedLength(KEY_PREFIX.length + KEY_DIGITS, FAMILY.length, QUALIFIERS[0].length, VALUE_LENGTH);
  }

  /**
   * Fills {@code out[0..3]} with the four cells of row {@code rowId} at timestamp {@code ts}. Sequence
   * ids are left 0 for the caller to stamp.
   */
  public void row(long rowId, long ts, Cell[] out) {
    writeDigits(rowId);
    for (int q = 0; q < CELLS_PER_ROW; q++) {
      int off = random.nextInt(VALUE_POOL);
      out[q] = Cells.create(rowKey, 0, rowKey.length, FAMILY, QUALIFIERS[q], 0, QUALIFIERS[q].length,
          ts, CellType.PUT, valuePool, off, VALUE_LENGTH);
    }
  }

  /**
   * The cells of {@code rows} rows with ids drawn uniformly from {@code [0, keySpace)}, in the order
   * drawn, at timestamp 1, with sequence ids 1, 2, ...: the input of the micro-benchmarks that copy
   * or index a memory segment's worth of the paper's cells.
   */
  static Cell[] randomRowCells(long seed, int rows, long keySpace) {
    PaperRows gen = new PaperRows(seed);
    Cell[] cells = new Cell[rows * CELLS_PER_ROW];
    Cell[] row = new Cell[CELLS_PER_ROW];
    for (int r = 0; r < rows; r++) {
      gen.row(gen.random.nextLong(keySpace), 1, row);
      for (int q = 0; q < CELLS_PER_ROW; q++) {
        Cell c = row[q];
        c.setSeqId(r * CELLS_PER_ROW + q + 1);
        cells[r * CELLS_PER_ROW + q] = c;
      }
    }
    return cells;
  }

  /** Qualifier {@code q} (0..3) of the paper's row; shared, must not be modified. */
  static byte[] qualifier(int q) {
    return QUALIFIERS[q];
  }

  /** The row key of {@code rowId}, freshly allocated. */
  public byte[] rowKey(long rowId) {
    writeDigits(rowId);
    return rowKey.clone();
  }

  /** Unsigned decimal, zero-padded to 20 digits, so that the ids sort like their keys' bytes. */
  private void writeDigits(long id) {
    int p = rowKey.length - 1;
    long v = id;
    // The first step divides as unsigned so that negative ids (top bit set) print correctly.
    long q = Long.divideUnsigned(v, 10);
    rowKey[p--] = (byte) ('0' + (v - q * 10));
    v = q;
    while (p >= KEY_PREFIX.length) {
      rowKey[p--] = (byte) ('0' + (v % 10));
      v /= 10;
    }
  }
}
