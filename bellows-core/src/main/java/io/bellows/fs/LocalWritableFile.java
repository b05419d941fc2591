package io.bellows.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A local file being written through a {@link FileChannel}: every append goes straight to the
 * operating system, {@link #sync} is {@code force(true)}, {@link #syncData} {@code force(false)}
 * (fdatasync). An interrupt of a caller closes the channel; the file is then reopened for appending
 * (the file is append only, so its end is where the next byte goes) and stays usable, and only the interrupted caller fails (with an {@link
 * java.io.InterruptedIOException}, its flag kept). Whether that caller's bytes reached the file is
 * known exactly ({@link #size}); whether its sync finished is not, so a sync is simply repeated by
 * the next caller who needs it: an fsync of a new descriptor covers everything written through the
 * old one. The fast path is the plain channel call.
 */
final class LocalWritableFile implements WritableFile {
  private final Path path;
  private volatile FileChannel channel;
  private long size; // bytes the OS took, counted from src's position (exact even when cut short)
  private boolean closed; // guarded by this

  LocalWritableFile(Path path) throws IOException {
    this.path = path;
    this.channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
  }

  @Override
  public void append(ByteBuffer src) throws IOException {
    while (src.hasRemaining()) {
      Interrupts.check(path);
      FileChannel ch = channel;
      int before = src.position();
      try {
        ch.write(src);
      } catch (ClosedChannelException e) {
        // A write cut short by an interrupt still moved src past the bytes the OS took.
        size += src.position() - before;
        replace(ch, e);
        continue;
      }
      size += src.position() - before;
    }
  }

  @Override
  public void sync() throws IOException {
    force(true);
  }

  @Override
  public void syncData() throws IOException {
    force(false);
  }

  private void force(boolean metaData) throws IOException {
    for (;;) {
      Interrupts.check(path);
      FileChannel ch = channel;
      try {
        ch.force(metaData);
        return;
      } catch (ClosedChannelException e) {
        replace(ch, e);
      }
    }
  }

  /** Reopens the file for appending in place of {@code failed}, unless another thread did already. */
  private void replace(FileChannel failed, ClosedChannelException e) throws IOException {
    synchronized (this) {
      if (closed) {
        throw e;
      }
      if (channel == failed) {
        // Append mode: the file's own end is where the next byte goes, whichever thread wrote last.
        FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        channel = ch;
      }
    }
    Interrupts.check(path, e);
  }

  @Override
  public long size() {
    return size;
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
