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
 * regrowth.
 *
 * <p>After a force the chunks are kept for reuse, as many as the copies held at their peak since the
 * force before (at most {@code maxSpare}): so a steady write rate allocates nothing here. Each chunk
 * would otherwise live until the next force, about a second under ASYNC_WAL, long enough for a
 * young collection to copy it; new chunks were 2.5% of all bytes allocated while writing 50K rows/s
 * (docs/bench/log/2026-11-29-young-pause-survivors.md). Kept chunks are promoted once and stay.
 * A slower interval lowers the peak, and the spares beyond it are dropped at the next clear.
 *
 * <p>Not thread-safe: the {@link Wal} guards it by its I/O lock.
 */
final class UnforcedCopies {
  static final int CHUNK = 256 * 1024;

  /** Most chunks kept for reuse. */
  private final int maxSpare;
  private final List<byte[]> chunks = new ArrayList<>();
  private final ArrayDeque<byte[]> spare = new ArrayDeque<>();
  /** Most chunks held at once since the last {@link #clear}. */
  private int peakChunks;
  /** Chunks ever allocated (not taken from the spares). */
  private long allocated;
  /** Bytes used in the last chunk. */
  private int last = CHUNK;
  /** Where the bytes held begin in the first chunk (those before were forced: {@link #dropFirst}). */
  private int head;
  private long size;

  /** Copies that keep at most {@code maxSpareBytes} of chunks for reuse. */
  UnforcedCopies(long maxSpareBytes) {
    this.maxSpare = (int) Math.min(Integer.MAX_VALUE, Math.max(0, maxSpareBytes / CHUNK));
  }

  /** Appends the bytes of {@code src} (its position is not moved). */
  void append(ByteBuffer src) {
    ByteBuffer b = src.duplicate();
    while (b.hasRemaining()) {
      if (last == CHUNK) {
        if (spare.isEmpty()) {
          chunks.add(new byte[CHUNK]);
          allocated++;
        } else {
          chunks.add(spare.pop());
        }
        peakChunks = Math.max(peakChunks, chunks.size());
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
    if (spare.size() < maxSpare) {
      spare.push(c);
    }
  }

  /**
   * Drops every byte held (they were forced, or rewritten and forced), keeping for reuse as many
   * chunks as were held at the peak since the last clear.
   */
  void clear() {
    for (byte[] c : chunks) {
      recycle(c);
    }
    chunks.clear();
    while (spare.size() > peakChunks) {
      spare.pop();
    }
    peakChunks = 0;
    last = CHUNK;
    head = 0;
    size = 0;
  }

  /** Chunks kept for reuse. */
  int spareChunks() {
    return spare.size();
  }

  /** Chunks ever allocated rather than reused. */
  long allocatedChunks() {
    return allocated;
  }
}
