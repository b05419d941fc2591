package io.bellows.sstable;

import io.bellows.config.BloomType;
import io.bellows.util.XxHash;

/**
 * A Bloom filter over byte-string keys: {@code numBits} bits (a multiple of 64), {@code hashCount}
 * probes derived by double hashing from one 64-bit xxHash64 (seed 0) of the key: probe i is bit
 * {@code floorMod(h1 + i * h2, numBits)} with h1 the low and h2 the high 32 bits (both signed). Never
 * gives a false negative. Immutable after building, so thread-safe for queries.
 */
public final class BloomFilter {
  private final BloomType type;
  private final int hashCount;
  private final long numBits;
  private final long keyCount;
  private final long[] words;

  BloomFilter(BloomType type, int hashCount, long numBits, long keyCount, long[] words) {
    this.type = type;
    this.hashCount = hashCount;
    this.numBits = numBits;
    this.keyCount = keyCount;
    this.words = words;
  }

  /**
   * A filter sized for {@code keyHashes} (xxHash64 of each distinct key) at the target false-positive
   * rate: {@code m = ceil(-n ln p / ln(2)^2)} rounded up to 64 bits, {@code k = round(m/n ln 2)} in [1, 30].
   */
  static BloomFilter build(BloomType type, long[] keyHashes, int n, double errorRate) {
    long m = n == 0 ? 64 : (long) Math.ceil(-n * Math.log(errorRate) / (Math.log(2) * Math.log(2)));
    m = Math.max(64, (m + 63) / 64 * 64);
    int k = n == 0 ? 1 : (int) Math.max(1, Math.min(30, Math.round((double) m / n * Math.log(2))));
    if (m / 64 > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("Bloom filter of " + m + " bits is too large");
    }
    long[] words = new long[(int) (m / 64)];
    BloomFilter f = new BloomFilter(type, k, m, n, words);
    for (int i = 0; i < n; i++) {
      f.set(keyHashes[i]);
    }
    return f;
  }

  long hash(byte[] b, int off, int len) {
    return XxHash.hash64(b, off, len);
  }

  private void set(long h) {
    int h1 = (int) h;
    int h2 = (int) (h >>> 32);
    for (int i = 0; i < hashCount; i++) {
      long bit = Math.floorMod(h1 + (long) i * h2, numBits);
      words[(int) (bit >>> 6)] |= 1L << (bit & 63);
    }
  }

  /** False only if the key was certainly not added. */
  public boolean mightContain(byte[] b, int off, int len) {
    return mightContainHash(hash(b, off, len));
  }

  /** {@link #mightContain} of the key whose xxHash64 is {@code h}. */
  public boolean mightContainHash(long h) {
    int h1 = (int) h;
    int h2 = (int) (h >>> 32);
    for (int i = 0; i < hashCount; i++) {
      long bit = Math.floorMod(h1 + (long) i * h2, numBits);
      if ((words[(int) (bit >>> 6)] & (1L << (bit & 63))) == 0) {
        return false;
      }
    }
    return true;
  }

  public BloomType type() {
    return type;
  }

  public int hashCount() {
    return hashCount;
  }

  public long numBits() {
    return numBits;
  }

  /** Distinct keys added. */
  public long keyCount() {
    return keyCount;
  }

  /** The false-positive rate this filter should show: {@code (1 - e^(-k n / m))^k}. */
  public double expectedFalsePositiveRate() {
    return Math.pow(1 - Math.exp(-(double) hashCount * keyCount / numBits), hashCount);
  }

  /** Payload: u8 bloom type, u8 hash count, i64 bit count, i64 key count, then the bit words (i64 each). */
  byte[] encode() {
    ByteSink out = new ByteSink(18 + words.length * 8);
    out.putByte(type.code());
    out.putByte(hashCount);
    out.putLong(numBits);
    out.putLong(keyCount);
    for (long w : words) {
      out.putLong(w);
    }
    return out.toByteArray();
  }

  static BloomFilter decode(byte[] p) {
    ByteReader r = new ByteReader(p, 0, p.length);
    BloomType type;
    try {
      type = BloomType.fromCode((byte) r.getByte());
    } catch (IllegalArgumentException e) {
      throw new MalformedBlockException(e.getMessage());
    }
    int k = r.getByte();
    long m = r.getLong();
    long n = r.getLong();
    if (type == BloomType.NONE || k < 1 || k > 30 || m < 64 || m % 64 != 0 || m / 64 != r.remaining() / 8
        || r.remaining() % 8 != 0 || n < 0) {
      throw new MalformedBlockException("bad Bloom header: type " + type + ", " + k + " hashes, " + m + " bits, "
          + r.remaining() + " bytes of bits");
    }
    long[] words = new long[(int) (m / 64)];
    for (int i = 0; i < words.length; i++) {
      words[i] = r.getLong();
    }
    return new BloomFilter(type, k, m, n, words);
  }
}
