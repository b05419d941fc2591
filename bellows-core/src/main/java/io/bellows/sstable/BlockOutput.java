package io.bellows.sstable;

import io.bellows.config.Compression;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Appends framed blocks ({@link BlockFormat}) to the file being written and tracks the write
 * position. Compresses payloads with the requested compression but stores a block uncompressed
 * when compression does not make it smaller. Not thread-safe.
 */
final class BlockOutput {
  private final OutputStream out;
  private final BlockCodec codec = new BlockCodec();
  /** The block being framed: header, stored payload and checksum. */
  private byte[] frame = new byte[BlockFormat.OVERHEAD + 64 * 1024];
  private long position;

  BlockOutput(OutputStream out) {
    this.out = out;
  }

  long position() {
    return position;
  }

  /** Writes one block; returns its on-disk size. */
  int write(BlockType type, Compression compression, byte[] payload) throws IOException {
    return write(type, compression, payload, 0, payload.length);
  }

  /**
   * Writes one block whose payload is {@code src[off, off+len)}; returns its on-disk size. The block
   * is compressed and framed in one buffer this output keeps (grown to the largest block), not in
   * arrays of its own.
   */
  int write(BlockType type, Compression compression, byte[] src, int off, int len) throws IOException {
    int room = compression == Compression.NONE ? len : Math.max(len, codec.maxCompressedLength(compression, len));
    if (frame.length < BlockFormat.OVERHEAD + room) {
      frame = new byte[BlockFormat.OVERHEAD + room];
    }
    Compression used = Compression.NONE;
    int stored = len;
    if (compression != Compression.NONE) {
      int n = codec.compressInto(compression, src, off, len, frame, BlockFormat.HEADER);
      if (n < len) {
        used = compression;
        stored = n;
      }
    }
    if (used == Compression.NONE) {
      System.arraycopy(src, off, frame, BlockFormat.HEADER, len);
    }
    int size = BlockFormat.frameInPlace(frame, type, used.code(), len, stored);
    out.write(frame, 0, size);
    position += size;
    return size;
  }

  void writeRaw(byte[] b) throws IOException {
    out.write(b);
    position += b.length;
  }
}
