package io.bellows.wal;

import io.bellows.fs.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Copies of the records the log wrote to its current file but has not forced yet, in order: what a
 * failed file may lose, to be rewritten to the next one. Held in fixed chunks of {@link #CHUNK}
 * bytes rather than one growing array, so that tens of megabytes between two forces cost no
 * regrowth and no arrays large enough to be allocated outside the young generation; a few chunks
 * are kept for reuse after a force. Not thread-safe: the {@link Wal} guards it by its I/O lock.
 */
final class UnforcedCopies {
  static final int CHUNK = 256 * 1024;
  /** Chunks kept for reuse once cleared (1 MiB). */
  private static final int KEEP = 4;

  private final List<byte[]> chunks = new ArrayList<>();
  private final ArrayDeque<byte[]> spare = new ArrayDeque<>();
  /** Bytes used in the last chunk. */
  private int last = CHUNK;
  /** Where the bytes held begin in the first chunk (those before were forced: {@link #dropFirst}). */
  private int head;
  private long size;

  /** Appends the bytes of {@code src} (its position is not moved). */
  void append(ByteBuffer src) {
    ByteBuffer b = src.duplicate();
    while (b.hasRemaining()) {
      if (last == CHUNK) {
        chunks.add(spare.isEmpty() ? new byte[CHUNK] : spare.pop());
        last = 0;
      }
      int n = Math.min(CHUNK - last, b.remaining());
      b.get(chunks.get(chunks.size() - 1), last, n);
      last += n;
      size += n;
    }
  }

  long size() {
    return size;
  }

  /** Appends every byte held to {@code file}, in order. */
  void writeTo(WritableFile file) throws IOException {
    for (int i = 0; i < chunks.size(); i++) {
      int from = i == 0 ? head : 0;
      file.append(ByteBuffer.wrap(chunks.get(i), from, (i == chunks.size() - 1 ? last : CHUNK) - from));
    }
  }

  /**
   * Drops the first {@code n} bytes held (a force made them durable while later ones were
   * written), keeping the rest in order.
   */
  void dropFirst(long n) {
    if (n >= size) {
      clear();
      return;
    }
    size -= n;
    long pos = head + n;
    while (pos >= CHUNK) { // a whole chunk dropped: more bytes follow, so it is not the last one
      recycle(chunks.remove(0));
      pos -= CHUNK;
    }
    head = (int) pos;
  }

  private void recycle(byte[] c) {
    if (spare.size() < KEEP) {
      spare.push(c);
    }
  }

  /** Drops every byte held (they were forced, or rewritten and forced). */
  void clear() {
    for (byte[] c : chunks) {
      recycle(c);
    }
    chunks.clear();
    last = CHUNK;
    head = 0;
    size = 0;
  }
}
