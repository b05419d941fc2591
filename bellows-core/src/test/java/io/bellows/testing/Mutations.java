package io.bellows.testing;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Seeded mutations of valid files, as a fuzzer makes them: bit flips, byte sets (to 0, 0xFF, small
 * and boundary numbers), truncations, extensions with junk, splices of two files, copies of a range
 * over another, and large or negative numbers written over 4-byte fields (length fields).
 */
public final class Mutations {
  private static final int[] INTERESTING = {0, 1, -1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF,
      0x80000000, 16, 64, 4096};

  private Mutations() {}

  /** One to four mutations of a copy of a randomly chosen file of {@code corpus}. */
  public static byte[] mutate(List<byte[]> corpus, Random rnd) {
    byte[] f = corpus.get(rnd.nextInt(corpus.size())).clone();
    for (int n = 1 + rnd.nextInt(4); n > 0; n--) {
      f = once(f, corpus, rnd);
    }
    return f;
  }

  private static byte[] once(byte[] f, List<byte[]> corpus, Random rnd) {
    if (f.length == 0) {
      byte[] junk = new byte[rnd.nextInt(64)];
      rnd.nextBytes(junk);
      return junk;
    }
    int at = rnd.nextInt(f.length);
    switch (rnd.nextInt(8)) {
      case 0 -> f[at] ^= (byte) (1 << rnd.nextInt(8));
      case 1 -> f[at] = (byte) INTERESTING[rnd.nextInt(INTERESTING.length)];
      case 2 -> f = Arrays.copyOf(f, rnd.nextInt(f.length));
      case 3 -> {
        int old = f.length;
        f = Arrays.copyOf(f, old + 1 + rnd.nextInt(256));
        for (int i = old; i < f.length; i++) {
          f[i] = (byte) rnd.nextInt(256);
        }
      }
      case 4 -> {
        byte[] other = corpus.get(rnd.nextInt(corpus.size()));
        int from = other.length == 0 ? 0 : rnd.nextInt(other.length);
        byte[] out = Arrays.copyOf(f, at + other.length - from);
        System.arraycopy(other, from, out, at, other.length - from);
        f = out;
      }
      case 5 -> {
        int from = rnd.nextInt(f.length);
        int len = Math.min(rnd.nextInt(64), Math.min(f.length - from, f.length - at));
        System.arraycopy(f, from, f, at, len);
      }
      default -> {
        if (f.length >= 4) {
          int pos = rnd.nextInt(f.length - 3);
          int v = rnd.nextBoolean() ? INTERESTING[rnd.nextInt(INTERESTING.length)] : rnd.nextInt();
          f[pos] = (byte) (v >>> 24);
          f[pos + 1] = (byte) (v >>> 16);
          f[pos + 2] = (byte) (v >>> 8);
          f[pos + 3] = (byte) v;
        }
      }
    }
    return f;
  }
}
