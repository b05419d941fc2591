package io.bellows.wal;

import io.bellows.fs.FileSystem;
import io.bellows.fs.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Makes the log's next file: numbered after every file before it, its header written and forced and
 * its name made durable before any record goes in. A file a failed step made is deleted; if even
 * that fails, it is remembered and no later file is made until it is gone (replay would meet it,
 * and a header naming a fenced length must directly follow the fenced file).
 *
 * <p>Not thread-safe: called with the log's {@code ioLock} and {@code appendLock} held.
 */
final class WalFileCreator {
  /** How often a new file is tried when its creation fails for another reason than an interrupt. */
  static final int CREATE_ATTEMPTS = 2;

  /** How often a file creation (when rolling) cut short by an interrupt is tried again. */
  static final int INTERRUPTED_ATTEMPTS = 8;

  /** A file just made, not yet the log's: the caller installs it as the current file, or discards it. */
  record Created(WalFile file, WritableFile channel) {}

  private final FileSystem fs;
  private final Path dir;
  private long nextFileNumber;
  /** A file this log created that a failed step left behind and could not delete: nothing may follow it. */
  private Path leftover;

  WalFileCreator(FileSystem fs, Path dir, long firstNumber) {
    this.fs = fs;
    this.dir = dir;
    this.nextFileNumber = firstNumber;
  }

  /** Whether an I/O failure is an interrupt of the calling thread rather than of the disk. */
  static boolean byInterrupt(IOException e) {
    return e instanceof java.io.InterruptedIOException || e instanceof java.nio.channels.ClosedByInterruptException;
  }

  /**
   * Creates the next file with its header ({@code fencedLength}: where the previous, failed file's
   * forced part ends, or -1), forced, and its name made durable.
   */
  Created create(long fencedLength) throws IOException {
    boolean interrupted = false;
    int failures = 0;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          return createOnce(fencedLength);
        } catch (IOException e) {
          // An interrupt is the caller's, kept for it, never the file's failure; another error may
          // be a passing one, so a new file is tried once more before the caller is told.
          if (byInterrupt(e) ? attempt >= INTERRUPTED_ATTEMPTS : ++failures >= CREATE_ATTEMPTS) {
            throw e;
          }
          interrupted |= Thread.interrupted();
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private Created createOnce(long fencedLength) throws IOException {
    clearLeftover();
    long number = nextFileNumber++;
    Path path = dir.resolve(WalFormat.fileName(number));
    WritableFile ch = fs.create(path);
    try {
      ch.append(ByteBuffer.wrap(WalFormat.header(number, fencedLength)));
      ch.sync();
      // The new name must be durable before any record in the file is acknowledged: a failed
      // directory sync fails this file, never ignored.
      fs.syncDirectory(dir);
    } catch (IOException e) {
      discard(ch, path, e);
      throw e;
    }
    WalFile f = new WalFile(number, path);
    f.seqKnown = true;
    return new Created(f, ch);
  }

  /** Closes and deletes a file this log just created and could not finish; remembers it if the delete fails. */
  void discard(WritableFile ch, Path path, IOException cause) {
    try {
      ch.close();
    } catch (IOException suppressed) {
      cause.addSuppressed(suppressed);
    }
    try {
      fs.delete(path);
    } catch (IOException suppressed) {
      cause.addSuppressed(suppressed);
      leftover = path;
    }
  }

  /** A file left by a failed step must go before another is created after it (replay would meet it). */
  private void clearLeftover() throws IOException {
    if (leftover != null) {
      fs.delete(leftover);
      fs.syncDirectory(dir);
      leftover = null;
    }
  }
}
