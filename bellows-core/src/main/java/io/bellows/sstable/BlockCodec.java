package io.bellows.sstable;

import com.github.luben.zstd.Zstd;
import io.bellows.config.Compression;
import java.util.Arrays;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * Compresses and decompresses block payloads with one {@link Compression}. Stateless apart from the
 * libraries' thread-safe codec instances, so one instance may be shared by threads.
 */
final class BlockCodec {
  /** zstd level: 3 is the library's default balance of speed and ratio. */
  private static final int ZSTD_LEVEL = 3;

  private final LZ4Compressor lz4Compressor;
  /**
   * The safe decompressor, bounded by the stored length: a block that passed its checksum can still
   * be malformed (written so, or resealed), and LZ4's "fast" decoder trusts its input and may read
   * past it (CVE-2025-12183).
   */
  private final LZ4SafeDecompressor lz4Decompressor;

  BlockCodec() {
    LZ4Factory f = LZ4Factory.fastestInstance();
    this.lz4Compressor = f.fastCompressor();
    this.lz4Decompressor = f.safeDecompressor();
  }

  /** {@code src[off, off+len)} compressed, in an array of its own. */
  byte[] compress(Compression c, byte[] src, int off, int len) {
    byte[] dst = new byte[maxCompressedLength(c, len)];
    return Arrays.copyOf(dst, compressInto(c, src, off, len, dst, 0));
  }

  /** Most bytes {@link #compressInto} may write for {@code len} bytes of input. */
  int maxCompressedLength(Compression c, int len) {
    switch (c) {
      case NONE:
        return len;
      case LZ4:
        return lz4Compressor.maxCompressedLength(len);
      case ZSTD:
        return (int) Zstd.compressBound(len);
      default:
        throw new IllegalArgumentException("unknown compression " + c);
    }
  }

  /**
   * Compresses {@code src[off, off+len)} into {@code dst} from {@code dstOff}, which has room for
   * {@link #maxCompressedLength} bytes; returns the compressed length. As {@link #compress},
   * without an array per block: the writer's blocks were 5% of the bytes allocated while
   * gets and writes ran.
   */
  int compressInto(Compression c, byte[] src, int off, int len, byte[] dst, int dstOff) {
    switch (c) {
      case NONE:
        System.arraycopy(src, off, dst, dstOff, len);
        return len;
      case LZ4:
        return lz4Compressor.compress(src, off, len, dst, dstOff, dst.length - dstOff);
      case ZSTD: {
        long n = Zstd.compressByteArray(dst, dstOff, dst.length - dstOff, src, off, len, ZSTD_LEVEL);
        if (Zstd.isError(n)) {
          throw new IllegalStateException("zstd compression failed: " + Zstd.getErrorName(n));
        }
        return (int) n;
      }
      default:
        throw new IllegalArgumentException("unknown compression " + c);
    }
  }

  /**
   * Decompresses {@code src[off, off+len)} into exactly {@code uncompressedLength} bytes. Throws
   * {@link IllegalArgumentException} if the input does not decode to exactly that many bytes.
   */
  byte[] decompress(Compression c, byte[] src, int off, int len, int uncompressedLength) {
    switch (c) {
      case NONE:
        if (len != uncompressedLength) {
          throw new IllegalArgumentException("uncompressed block of " + len + " bytes claims " + uncompressedLength);
        }
        return Arrays.copyOfRange(src, off, off + len);
      case LZ4: {
        byte[] dst = new byte[uncompressedLength];
        int written;
        try {
          written = lz4Decompressor.decompress(src, off, len, dst, 0, uncompressedLength);
        } catch (RuntimeException e) {
          throw new IllegalArgumentException("lz4: " + e.getMessage(), e);
        }
        if (written != uncompressedLength) {
          throw new IllegalArgumentException("lz4 block of " + len + " stored bytes decoded to " + written
              + " bytes, not " + uncompressedLength);
        }
        return dst;
      }
      case ZSTD: {
        byte[] dst = new byte[uncompressedLength];
        long n;
        try {
          n = Zstd.decompressByteArray(dst, 0, dst.length, src, off, len);
        } catch (RuntimeException e) { // zstd-jni throws ZstdException on malformed frames
          throw new IllegalArgumentException("zstd: " + e.getMessage(), e);
        }
        if (Zstd.isError(n) || n != uncompressedLength) {
          throw new IllegalArgumentException("zstd: " + (Zstd.isError(n) ? Zstd.getErrorName(n) : n + " bytes"));
        }
        return dst;
      }
      default:
        throw new IllegalArgumentException("unknown compression " + c);
    }
  }
}
