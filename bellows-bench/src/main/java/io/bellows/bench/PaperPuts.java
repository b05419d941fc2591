package io.bellows.bench;

import io.bellows.client.Put;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Builds rows of a {@link RowShape} as client {@link Put}s for the engine benchmarks: the row keys
 * and family of {@link PaperRows}, the shape's qualifiers and values (by default the paper's 4
 * cells of 25 bytes). The engine stamps the timestamp. Every put gets fresh arrays (the client API keeps them),
 * taken from a pre-filled random pool so that making a put costs the same for every configuration.
 *
 * <p>Not thread-safe (owns a random source and a {@link PaperRows}): one per writer thread.
 */
final class PaperPuts {
  private static final int VALUE_POOL = 64 * 1024;

  private final PaperRows rows;
  private final RowShape shape;
  private final byte[][] qualifiers;
  private final byte[] valuePool;
  private final SplittableRandom random;

  /** The paper's rows. */
  PaperPuts(long seed) {
    this(seed, RowShape.PAPER);
  }

  PaperPuts(long seed, RowShape shape) {
    this.rows = new PaperRows(seed);
    this.shape = shape;
    this.qualifiers = new byte[shape.fields()][];
    for (int q = 0; q < qualifiers.length; q++) {
      qualifiers[q] = shape.qualifier(q);
    }
    this.valuePool = new byte[VALUE_POOL + shape.fieldLength()];
    this.random = new SplittableRandom(seed ^ 0x5DEECE66DL);
    random.nextBytes(valuePool);
  }

  RowShape shape() {
    return shape;
  }

  /** The put of row {@code rowId}: every column of the shape. */
  Put put(long rowId) {
    Put p = new Put(rows.rowKey(rowId));
    int length = shape.fieldLength();
    for (byte[] qualifier : qualifiers) {
      int off = random.nextInt(VALUE_POOL);
      p.addColumn(PaperRows.FAMILY, qualifier, Arrays.copyOfRange(valuePool, off, off + length));
    }
    return p;
  }

  /** The row key of {@code rowId}, freshly allocated. */
  byte[] rowKey(long rowId) {
    return rows.rowKey(rowId);
  }
}
