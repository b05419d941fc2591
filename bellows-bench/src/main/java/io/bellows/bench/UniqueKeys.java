package io.bellows.bench;

/**
 * Row ids that never repeat: a counter started at a seed-derived point, passed through the {@link
 * KeyMixer} bijection, so ids are distinct for 2^64 draws yet land all over the key range (a
 * uniform, all-unique insert workload). Not thread-safe; give each writer a different seed, which
 * starts its counter 2^40 apart from any other seed's.
 */
public final class UniqueKeys implements KeyChooser {
  private long next;

  public UniqueKeys(long seed) {
    this.next = seed << 40;
  }

  @Override
  public long nextRowId() {
    return KeyMixer.mix(next++);
  }
}
