package io.bellows.engine;

import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OS file lock on {@code <data dir>/LOCK} that makes an engine the only one using a directory,
 * in this process or any other. Released by {@link #release()} or when the process dies.
 */
final class DirectoryLock {
  private static final Logger LOG = LoggerFactory.getLogger(DirectoryLock.class);
  static final String FILE_NAME = "LOCK";

  private final Path dir;
  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(Path dir, FileChannel channel, FileLock lock) {
    this.dir = dir;
    this.channel = channel;
    this.lock = lock;
  }

  /** Takes the lock; throws {@link StorageException} if another engine holds it. */
  static DirectoryLock acquire(Path dir) throws IOException {
    FileChannel ch = FileChannel.open(dir.resolve(FILE_NAME), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock l;
    try {
      l = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      l = null; // held by another engine of this JVM
    }
    if (l == null) {
      ch.close();
      throw new StorageException(dir + " is in use by another open Bellows engine");
    }
    return new DirectoryLock(dir, ch, l);
  }

  void release() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      LOG.warn("could not release the lock of {}", dir, e);
    }
  }
}
