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
  private long position;

  BlockOutput(OutputStream out) {
    this.out = out;
  }

  long position() {
    return position;
  }

  /** Writes one block; returns its on-disk size. */
  int write(BlockType type, Compression compression, byte[] payload) throws IOException {
    Compression used = compression;
    byte[] stored = payload;
    if (compression != Compression.NONE) {
      stored = codec.compress(compression, payload, 0, payload.length);
      if (stored.length >= payload.length) {
        used = Compression.NONE;
        stored = payload;
      }
    }
    byte[] framed = BlockFormat.frame(type, used.code(), payload.length, stored);
    writeRaw(framed);
    return framed.length;
  }

  void writeRaw(byte[] b) throws IOException {
    out.write(b);
    position += b.length;
  }
}
