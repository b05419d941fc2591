package io.bellows.sstable;

import com.github.luben.zstd.Zstd;
import io.bellows.config.Compression;
import java.util.Arrays;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FastDecompressor;

/**
 * Compresses and decompresses block payloads with one {@link Compression}. Stateless apart from the
 * libraries' thread-safe codec instances, so one instance may be shared by threads.
 */
final class BlockCodec {
  /** zstd level: 3 is the library's default balance of speed and ratio. */
  private static final int ZSTD_LEVEL = 3;

  private final LZ4Compressor lz4Compressor;
  private final LZ4FastDecompressor lz4Decompressor;

  BlockCodec() {
    LZ4Factory f = LZ4Factory.fastestInstance();
    this.lz4Compressor = f.fastCompressor();
    this.lz4Decompressor = f.fastDecompressor();
  }

  byte[] compress(Compression c, byte[] src, int off, int len) {
    switch (c) {
      case NONE:
        return Arrays.copyOfRange(src, off, off + len);
      case LZ4:
        return lz4Compressor.compress(src, off, len);
      case ZSTD: {
        byte[] dst = new byte[(int) Zstd.compressBound(len)];
        long n = Zstd.compressByteArray(dst, 0, dst.length, src, off, len, ZSTD_LEVEL);
        if (Zstd.isError(n)) {
          throw new IllegalStateException("zstd compression failed: " + Zstd.getErrorName(n));
        }
        return Arrays.copyOf(dst, (int) n);
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
        int read;
        try {
          read = lz4Decompressor.decompress(src, off, dst, 0, uncompressedLength);
        } catch (RuntimeException e) {
          throw new IllegalArgumentException("lz4: " + e.getMessage(), e);
        }
        if (read != len) {
          throw new IllegalArgumentException("lz4 block used " + read + " of " + len + " stored bytes");
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
