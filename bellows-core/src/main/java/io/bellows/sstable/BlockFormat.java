package io.bellows.sstable;

import io.bellows.util.Bytes;
import java.util.zip.CRC32C;

/**
 * The framing every block carries on disk (see docs, "Block framing"):
 *
 * <pre>
 *   0   u8   block type
 *   1   u8   compression code of the stored payload
 *   2   i32  uncompressed payload length
 *   6   i32  stored payload length n
 *   10  n    stored payload
 *   10+n i32 CRC32C of bytes [0, 10+n)
 * </pre>
 *
 * Stateless helpers only.
 */
final class BlockFormat {
  static final int HEADER = 10;
  static final int CHECKSUM = 4;
  static final int OVERHEAD = HEADER + CHECKSUM;
  /** Largest payload accepted on read; a bigger claimed length means a corrupt header. */
  static final int MAX_PAYLOAD = 1 << 30;

  private BlockFormat() {}

  /**
   * Frames in place a stored payload of {@code stored} bytes already at {@link #HEADER} in {@code b}:
   * writes the header before it and the checksum after; returns the framed length.
   */
  static int frameInPlace(byte[] b, BlockType type, byte compression, int uncompressedLength, int stored) {
    b[0] = type.code();
    b[1] = compression;
    Bytes.putInt(b, 2, uncompressedLength);
    Bytes.putInt(b, 6, stored);
    Bytes.putInt(b, HEADER + stored, crc(b, 0, HEADER + stored));
    return OVERHEAD + stored;
  }

  static int crc(byte[] b, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(b, off, len);
    return (int) c.getValue();
  }
}
