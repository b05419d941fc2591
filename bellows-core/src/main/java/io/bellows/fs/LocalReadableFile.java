package io.bellows.fs;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A local file opened for positional reads that survives the interrupts of its callers. A {@link
 * FileChannel} is closed for every thread when one thread is interrupted in (or before) an I/O call
 * on it; the readers of a sorted file share one channel, so one cancelled reader would break the
 * file for all. Here a channel closed that way is replaced by a new one on the same path (once, by
 * whichever thread sees it first) and the read is retried; only the interrupted caller fails, with
 * an {@link InterruptedIOException}, its interrupt status kept.
 *
 * <p>Reopening by name relies on the engine's files not being deleted or renamed while open for
 * reading (sorted files are reference counted; a file is deleted after its last reader let go).
 */
final class LocalReadableFile implements ReadableFile {
  private final Path path;
  private final OpenOption[] options;
  private volatile FileChannel channel;
  private boolean closed; // guarded by this

  LocalReadableFile(Path path) throws IOException {
    this(path, StandardOpenOption.READ);
  }

  /** Opened with {@code options} (READ and more, e.g. direct I/O), and reopened with them after an interrupt. */
  LocalReadableFile(Path path, OpenOption... options) throws IOException {
    this.path = path;
    this.options = options.clone();
    this.channel = FileChannel.open(path, this.options);
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    int start = dst.position();
    for (;;) {
      Interrupts.check(path); // an interrupted thread would close the channel on entry
      FileChannel ch = channel;
      try {
        return ch.read(dst, position);
      } catch (ClosedChannelException e) { // ClosedByInterruptException and AsynchronousCloseException too
        dst.position(start); // an interrupted read may have filled part of dst: read it again
        replace(ch, e);
      }
    }
  }

  @Override
  public long length() throws IOException {
    for (;;) {
      Interrupts.check(path);
      FileChannel ch = channel;
      try {
        return ch.size();
      } catch (ClosedChannelException e) {
        replace(ch, e);
      }
    }
  }

  /**
   * Opens a new channel in place of {@code failed} unless another thread already did, or the file
   * was closed by its owner (then {@code e} is the caller's answer); throws for an interrupted caller.
   */
  private void replace(FileChannel failed, ClosedChannelException e) throws IOException {
    synchronized (this) {
      if (closed) {
        throw e;
      }
      if (channel == failed) {
        channel = FileChannel.open(path, options); // opening is not interruptible
      }
    }
    Interrupts.check(path, e);
  }

  /** The channel in use now; tests close it as an interrupt of another thread would. */
  FileChannel channelForTest() {
    return channel;
  }

  @Override
  public synchronized void close() throws IOException {
    closed = true;
    channel.close();
  }
}
