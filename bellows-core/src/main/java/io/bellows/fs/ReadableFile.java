package io.bellows.fs;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A file opened for positional reads. Thread-safe: a read does not move a shared position, so
 * threads share one open file without a lock.
 */
public interface ReadableFile extends Closeable {

  /**
   * Reads bytes at {@code position} into {@code dst} (as many as it has room for, or fewer), and
   * returns how many, or -1 at the end of the file.
   */
  int read(ByteBuffer dst, long position) throws IOException;

  /** The file's length in bytes. */
  long length() throws IOException;
}
