package io.bellows.bench;

import io.bellows.client.Put;
import java.util.SplittableRandom;

/**
 * Builds rows of a {@link RowShape} as client {@link Put}s for the engine benchmarks: the row keys
 * and family of {@link PaperRows}, the shape's qualifiers and values (by default the paper's 4
 * cells of 25 bytes). The engine stamps the timestamp. Every put gets fresh arrays (the client API
 * keeps them).
 *
 * <p>Values are made as YCSB makes its field values: fresh for every cell, printable bytes of about
 * six random bits each (here {@code ' '} plus six random bits), so a compressor finds what it would
 * in YCSB's data: no repeats for LZ4, some entropy to remove for ZSTD. (Until 2026-11-26 the values
 * were windows of one 64 KiB pool of random bytes, which repeat within a block: that let LZ4 save
 * 23% of the bytes of a flushed run instead of 13%.)
 *
 * <p>Not thread-safe (owns a random source and a {@link PaperRows}): one per writer thread.
 */
final class PaperPuts {
  /** Random bits per value byte, and value bytes per random long. */
  private static final int BITS = 6;
  private static final int BYTES_PER_LONG = Long.SIZE / BITS;

  private final PaperRows rows;
  private final RowShape shape;
  private final byte[][] qualifiers;
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
    this.random = new SplittableRandom(seed ^ 0x5DEECE66DL);
  }

  RowShape shape() {
    return shape;
  }

  /** The put of row {@code rowId}: every column of the shape. */
  Put put(long rowId) {
    Put p = new Put(rows.rowKey(rowId));
    int length = shape.fieldLength();
    for (byte[] qualifier : qualifiers) {
      p.addColumn(PaperRows.FAMILY, qualifier, value(length));
    }
    return p;
  }

  /** A fresh value of {@code length} printable bytes, {@code ' '} plus six random bits each. */
  byte[] value(int length) {
    byte[] v = new byte[length];
    for (int i = 0; i < length; i += BYTES_PER_LONG) {
      long bits = random.nextLong();
      for (int j = i; j < Math.min(length, i + BYTES_PER_LONG); j++) {
        v[j] = (byte) (' ' + (bits & ((1 << BITS) - 1)));
        bits >>>= BITS;
      }
    }
    return v;
  }

  /** The row key of {@code rowId}, freshly allocated. */
  byte[] rowKey(long rowId) {
    return rows.rowKey(rowId);
  }
}
