package io.bellows.bench;

import java.util.SplittableRandom;

/**
 * Row ids drawn uniformly at random over {@code keySpace} items (with repeats, unlike {@link
 * UniqueKeys}), through {@link KeyMixer}: the paper's "uniform" distribution. Not thread-safe.
 */
final class UniformKeys implements KeyChooser {
  private final long keySpace;
  private final SplittableRandom random;

  UniformKeys(long keySpace, long seed) {
    if (keySpace < 1) {
      throw new IllegalArgumentException("key space must be positive: " + keySpace);
    }
    this.keySpace = keySpace;
    this.random = new SplittableRandom(seed);
  }

  @Override
  public long nextRowId() {
    return KeyMixer.mix(random.nextLong(keySpace));
  }
}
