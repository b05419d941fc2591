package io.bellows.sstable;

import io.bellows.config.BloomType;
import io.bellows.util.BlockedBloomBits;
import io.bellows.util.XxHash;

/**
 * A Bloom filter over byte-string keys, probed with one 64-bit xxHash64 (seed 0) of the key, in one
 * of two layouts (docs/FORMAT.md, "Bloom block payload"):
 *
 * <ul>
 *   <li>{@link Layout#BLOCKED}, written since sorted-file version 3: all of a key's probes fall in
 *       one 512-bit block ({@link BlockedBloomBits}), so a get's test of a file touches one cache line.
 *       Every get tests the filter of every file of its family that its key range does not rule out,
 *       and filters of a few MB each miss the CPU caches: a key the file does not hold cost about two
 *       misses in the classic layout and one here, a key it holds k misses and one here.
 *   <li>{@link Layout#CLASSIC}, in files of versions 1 and 2 (still read, no longer written): probe
 *       i is bit {@code floorMod(h1 + i * h2, numBits)}, with h1 the low and h2 the high 32 bits of
 *       the hash (both signed).
 * </ul>
 *
 * Never gives a false negative. Immutable after building, so thread-safe for queries.
 */
public final class BloomFilter {
  /** Where a key's probes fall; the Bloom block's type says which a file holds. */
  public enum Layout {
    /** Probes spread over the whole filter (Bloom block type 4). */
    CLASSIC(64, 30),
    /** Probes within one 512-bit block (Bloom block type 6). */
    BLOCKED(BlockedBloomBits.BLOCK_BITS, BlockedBloomBits.MAX_HASH_COUNT);

    /** The filter's size is a whole number of these bits. */
    final int unitBits;
    final int maxHashCount;

    Layout(int unitBits, int maxHashCount) {
      this.unitBits = unitBits;
      this.maxHashCount = maxHashCount;
    }
  }

  private final BloomType type;
  private final Layout layout;
  private final int hashCount;
  private final long numBits;
  private final long keyCount;
  private final long[] words;
  /** 512-bit blocks (BLOCKED only). */
  private final long blocks;

  BloomFilter(BloomType type, Layout layout, int hashCount, long numBits, long keyCount, long[] words) {
    this.type = type;
    this.layout = layout;
    this.hashCount = hashCount;
    this.numBits = numBits;
    this.keyCount = keyCount;
    this.words = words;
    this.blocks = numBits / BlockedBloomBits.BLOCK_BITS;
  }

  /**
   * A filter in the {@code layout} sized for {@code keyHashes} (xxHash64 of each distinct key) at the
   * target false-positive rate: {@code m = ceil(-n ln p / ln(2)^2)} rounded up to a whole block (64
   * bits classic, 512 blocked), {@code k = round(m/n ln 2)} in [1, 30] classic, [1, 7] blocked. A
   * blocked filter then grows by 1/32 (whole blocks) until its expected rate is at most p: its
   * blocks fill unevenly, and at p = 0.001 the classic size would give 0.0017.
   */
  static BloomFilter build(BloomType type, Layout layout, long[] keyHashes, int n, double errorRate) {
    boolean blocked = layout == Layout.BLOCKED;
    int unit = layout.unitBits;
    long m = n == 0 ? unit : (long) Math.ceil(-n * Math.log(errorRate) / (Math.log(2) * Math.log(2)));
    m = Math.max(unit, (m + unit - 1) / unit * unit);
    int k = hashCount(layout, m, n);
    while (blocked && n > 0 && BlockedBloomBits.expectedFalsePositiveRate(n, m / unit, k) > errorRate) {
      m += Math.max(unit, m / 32 / unit * unit);
      k = hashCount(layout, m, n);
    }
    if (m / 64 > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("Bloom filter of " + m + " bits is too large");
    }
    long[] words = new long[(int) (m / 64)];
    BloomFilter f = new BloomFilter(type, layout, k, m, n, words);
    for (int i = 0; i < n; i++) {
      f.set(keyHashes[i]);
    }
    return f;
  }

  private static int hashCount(Layout layout, long m, int n) {
    return n == 0 ? 1 : (int) Math.max(1, Math.min(layout.maxHashCount, Math.round((double) m / n * Math.log(2))));
  }

  long hash(byte[] b, int off, int len) {
    return XxHash.hash64(b, off, len);
  }

  private void set(long h) {
    if (layout == Layout.BLOCKED) {
      BlockedBloomBits.set(words, blocks, h, hashCount);
      return;
    }
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
    if (layout == Layout.BLOCKED) {
      return BlockedBloomBits.test(words, blocks, h, hashCount);
    }
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

  public Layout layout() {
    return layout;
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

  /**
   * The false-positive rate this filter should show: classic {@code (1 - e^(-k n / m))^k}; blocked,
   * {@link BlockedBloomBits#expectedFalsePositiveRate}.
   */
  public double expectedFalsePositiveRate() {
    if (layout == Layout.BLOCKED) {
      return BlockedBloomBits.expectedFalsePositiveRate(keyCount, blocks, hashCount);
    }
    return Math.pow(1 - Math.exp(-(double) hashCount * keyCount / numBits), hashCount);
  }

  /** The type of the block this filter is stored in: it names the layout. */
  BlockType blockType() {
    return layout == Layout.BLOCKED ? BlockType.BLOCKED_BLOOM : BlockType.BLOOM;
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

  /** The filter stored in a Bloom block of {@code blockType} (BLOOM: classic, BLOCKED_BLOOM: blocked). */
  static BloomFilter decode(BlockType blockType, byte[] p) {
    Layout layout = blockType == BlockType.BLOCKED_BLOOM ? Layout.BLOCKED : Layout.CLASSIC;
    int unit = layout.unitBits;
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
    if (type == BloomType.NONE || k < 1 || k > layout.maxHashCount || m < unit || m % unit != 0 || m / 64 != r.remaining() / 8
        || r.remaining() % 8 != 0 || n < 0) {
      throw new MalformedBlockException("bad " + layout + " Bloom header: type " + type + ", " + k + " hashes, " + m + " bits, "
          + r.remaining() + " bytes of bits");
    }
    long[] words = new long[(int) (m / 64)];
    for (int i = 0; i < words.length; i++) {
      words[i] = r.getLong();
    }
    return new BloomFilter(type, layout, k, m, n, words);
  }
}
