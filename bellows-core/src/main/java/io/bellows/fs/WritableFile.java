package io.bellows.fs;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * A file being written: bytes are only ever appended at its end. Not thread-safe: one writer at a
 * time (the engine's writers hold a lock around it).
 */
public interface WritableFile extends Closeable {

  /** Appends every remaining byte of {@code src}; once it returns they survive a process crash. */
  void append(ByteBuffer src) throws IOException;

  /** Forces the appended bytes and the file's metadata (its length) to stable storage (fsync). */
  void sync() throws IOException;

  /**
   * Forces the appended bytes to stable storage, and the metadata only as far as needed to read
   * them back (fdatasync). Used for the log's records after its header was {@link #sync synced}.
   */
  default void syncData() throws IOException {
    sync();
  }

  /** Bytes appended so far (the file's length). */
  long size();

  /** An unbuffered stream appending to this file; closing it closes the file. */
  default OutputStream asOutputStream() {
    WritableFile file = this;
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        file.append(ByteBuffer.wrap(new byte[] {(byte) b}));
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        file.append(ByteBuffer.wrap(b, off, len));
      }

      @Override
      public void close() throws IOException {
        file.close();
      }
    };
  }

  /** Closes the file without syncing it. */
  @Override
  void close() throws IOException;
}
