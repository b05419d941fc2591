package io.bellows.fs;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A local file read with direct I/O ({@code O_DIRECT}): past the operating system's page cache, so
 * that every read the engine's caches miss goes to the device, as when the data is larger than the
 * memory left to the page cache (the KVCache paper's runs over 500 GB). Direct I/O reads whole
 * aligned blocks into aligned memory; a read here reads the aligned blocks around the bytes asked
 * for into a per-thread aligned buffer and copies those bytes out. Interrupts are handled as by
 * {@link LocalReadableFile}, which does the reading.
 */
final class DirectReadableFile implements ReadableFile {
  /** The alignment of offsets, lengths and memory: a page, a multiple of every device's logical block. */
  static final int ALIGN = 4096;

  private static final ThreadLocal<ByteBuffer> BUFFERS = new ThreadLocal<>();

  private final LocalReadableFile file;

  DirectReadableFile(Path path) throws IOException {
    this.file = new LocalReadableFile(path, StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    int want = dst.remaining();
    if (want == 0) {
      return 0;
    }
    long start = position & -ALIGN;
    long end = (position + want + ALIGN - 1) & -ALIGN;
    ByteBuffer buf = buffer((int) (end - start));
    int filled = 0;
    while (buf.hasRemaining()) {
      int n = file.read(buf, start + filled);
      if (n < 0) {
        break;
      }
      filled += n;
      if (filled % ALIGN != 0) {
        break; // a short read ends at the end of the file
      }
    }
    int skip = (int) (position - start);
    if (filled <= skip) {
      return -1;
    }
    int n = Math.min(want, filled - skip);
    dst.put(buf.duplicate().position(skip).limit(skip + n));
    return n;
  }

  /** This thread's aligned buffer, at least {@code size} bytes, cleared to exactly {@code size}. */
  private static ByteBuffer buffer(int size) {
    ByteBuffer b = BUFFERS.get();
    if (b == null || b.capacity() < size) {
      int capacity = Math.max(size, 64 * 1024);
      b = ByteBuffer.allocateDirect(capacity + ALIGN).alignedSlice(ALIGN);
      BUFFERS.set(b);
    }
    return b.clear().limit(size);
  }

  @Override
  public long length() throws IOException {
    return file.length();
  }

  @Override
  public void close() throws IOException {
    file.close();
  }
}
