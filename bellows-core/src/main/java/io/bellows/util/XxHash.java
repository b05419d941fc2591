package io.bellows.util;

import java.nio.ByteBuffer;
import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;

/**
 * xxHash64 with seed 0, the hash of sorted files' Bloom filters (docs/FORMAT.md) and of the memory
 * store's row filters and row positions.
 *
 * <p>lz4-java's pure-Java implementation, not its fastest: the JNI one enters a JNI critical region
 * on every call, which holds off garbage collection (with four readers hashing their gets' rows, a
 * read benchmark logged a 191 ms "GCLocker Initiated GC" pause), and costs more per call than it
 * saves on keys of tens of bytes (49 against 32 ns measured on 8–48-byte keys). Its Unsafe-based
 * Java one draws a deprecation warning on JDK 24 and later. The three give the same values (checked
 * in XxHashTest).
 */
public final class XxHash {
  private static final XXHash64 HASH = XXHashFactory.safeInstance().hash64();

  private XxHash() {}

  /** xxHash64, seed 0, of {@code len} bytes of {@code b} from {@code off}. */
  public static long hash64(byte[] b, int off, int len) {
    return HASH.hash(b, off, len, 0L);
  }

  /** xxHash64, seed 0, of {@code len} bytes of {@code buf} (heap or direct) from {@code off}. */
  public static long hash64(ByteBuffer buf, int off, int len) {
    return HASH.hash(buf, off, len, 0L);
  }
}
