package io.bellows.sstable;

import io.bellows.cell.Cell;
import io.bellows.cell.Cells;
import io.bellows.config.BloomType;

/**
 * What a Bloom filter hashes for each {@link BloomType}: ROW hashes the row bytes; ROWCOL hashes the
 * key bytes from the row length through the end of the qualifier (rowLength, row, familyLength,
 * family, qualifier), which is unambiguous because the lengths are included. Stateless.
 */
final class BloomKeys {
  private BloomKeys() {}

  /** Whether {@code c} has the same Bloom key as {@code prev} (so it need not be added again). */
  static boolean sameKey(BloomType type, Cell prev, Cell c) {
    return type == BloomType.ROW ? prev.sameRow(c) : prev.sameColumn(c);
  }

  static long hashOf(BloomType type, BloomFilter hasher, Cell c) {
    if (type == BloomType.ROW) {
      return hasher.hash(c.array(), c.rowOffset(), c.rowLength());
    }
    return hasher.hash(c.array(), c.keyOffset(), c.keyLength() - 9);
  }

  static boolean mightContainColumn(BloomFilter f, byte[] row, byte[] family, byte[] qualifier) {
    Cell k = Cells.firstOnColumn(row, family, qualifier);
    return f.mightContain(k.array(), k.keyOffset(), k.keyLength() - 9);
  }
}
