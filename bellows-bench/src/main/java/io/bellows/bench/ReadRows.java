package io.bellows.bench;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The rows of {@code bench read}: one cell per row, the row key is the item number zero-padded to
 * {@link #KEY_DIGITS} digits (so key order is item order and a CBMG "neighbour" is the adjacent
 * row), the value is {@link RowSizes#of} bytes. Values are slices of a fixed random pool picked by
 * item and version, so an update rewrites a row with the same size and different bytes, and no
 * value compresses. Immutable and thread-safe.
 */
final class ReadRows {
  static final int KEY_DIGITS = 10;
  static final byte[] FAMILY = "f".getBytes(StandardCharsets.UTF_8);
  static final byte[] QUALIFIER = "v".getBytes(StandardCharsets.UTF_8);
  private static final int POOL = 256 * 1024;

  private final byte[] pool;

  ReadRows(long seed) {
    pool = new byte[POOL];
    new SplittableRandom(seed).nextBytes(pool);
  }

  static byte[] key(long item) {
    if (item < 0 || item >= 10_000_000_000L) {
      throw new IllegalArgumentException("item out of range: " + item);
    }
    byte[] k = new byte[KEY_DIGITS];
    for (int i = KEY_DIGITS - 1; i >= 0; i--) {
      k[i] = (byte) ('0' + item % 10);
      item /= 10;
    }
    return k;
  }

  /** The value of {@code item} as written by its {@code version}-th write (0 = the load). */
  byte[] value(long item, long version) {
    int size = RowSizes.of(item);
    int from = (int) Math.floorMod(KeyMixer.mix(item * 31 + version), (long) (POOL - size));
    return Arrays.copyOfRange(pool, from, from + size);
  }
}
