package io.bellows.bench;

/**
 * A bijection on 64-bit values (the MurmurHash3 64-bit finalizer), used to turn a popularity rank
 * or a counter into a row id: distinct inputs give distinct ids, and neighbouring ranks land far
 * apart in key order, so that hot rows are spread over the whole key range as in production
 * workloads rather than clustered at its start. Stateless; thread-safe.
 */
final class KeyMixer {
  private KeyMixer() {}

  static long mix(long x) {
    x ^= x >>> 33;
    x *= 0xff51afd7ed558ccdL;
    x ^= x >>> 33;
    x *= 0xc4ceb9fe1a85ec53L;
    x ^= x >>> 33;
    return x;
  }
}
