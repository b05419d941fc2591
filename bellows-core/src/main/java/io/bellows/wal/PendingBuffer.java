package io.bellows.wal;

import java.nio.ByteBuffer;

/**
 * A growable byte array holding records appended but not yet written to the file. Not
 * thread-safe: the {@link Wal} guards each instance by its locks (see there).
 */
final class PendingBuffer {
  private static final int INITIAL = 64 * 1024;
  /**
   * A buffer that grew beyond this is replaced on reset, so one burst (a huge edit) does not pin
   * memory. Twice the size at which the log writes a buffer out, so that a buffer that grew in
   * steady writing is kept: replacing it would regrow it by doubling, in large (humongous, for G1)
   * arrays, every few megabytes written.
   */
  static final int KEEP_MAX = 2 * Wal.PENDING_WRITE_THRESHOLD;

  private byte[] buf = new byte[INITIAL];
  private int size;

  /** Appends the bytes of another buffer. */
  void append(PendingBuffer other) {
    append(other.buf, other.size);
  }

  void append(byte[] b) {
    append(b, b.length);
  }

  private void append(byte[] b, int length) {
    if (length > buf.length - size) {
      long want = Math.max((long) buf.length * 2, (long) size + length);
      if (want > Integer.MAX_VALUE - 8) {
        throw new IllegalStateException("WAL write buffer would exceed 2 GiB");
      }
      byte[] nb = new byte[(int) want];
      System.arraycopy(buf, 0, nb, 0, size);
      buf = nb;
    }
    System.arraycopy(b, 0, buf, size, length);
    size += length;
  }

  int size() {
    return size;
  }

  /** A buffer over the pending bytes (valid until the next append or reset). */
  ByteBuffer contents() {
    return ByteBuffer.wrap(buf, 0, size);
  }

  void reset() {
    size = 0;
    if (buf.length > KEEP_MAX) {
      buf = new byte[INITIAL];
    }
  }
}
