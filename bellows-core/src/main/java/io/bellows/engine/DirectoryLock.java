package io.bellows.engine;

import io.bellows.fs.FileSystem;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exclusive lock on {@code <data dir>/LOCK} that makes an engine the only one using a directory,
 * in this process or any other (an OS file lock on the local disk). Released by {@link #release()}
 * or when the process dies.
 */
final class DirectoryLock {
  private static final Logger LOG = LoggerFactory.getLogger(DirectoryLock.class);
  static final String FILE_NAME = "LOCK";

  private final Path dir;
  private final FileSystem.Lock lock;

  private DirectoryLock(Path dir, FileSystem.Lock lock) {
    this.dir = dir;
    this.lock = lock;
  }

  /** Takes the lock; throws {@link StorageException} if another engine holds it. */
  static DirectoryLock acquire(FileSystem fs, Path dir) throws IOException {
    FileSystem.Lock l = fs.tryLock(dir.resolve(FILE_NAME), true);
    if (l == null) {
      throw new StorageException(dir + " is in use by another open Bellows engine");
    }
    return new DirectoryLock(dir, l);
  }

  void release() {
    try {
      lock.close();
    } catch (IOException e) {
      LOG.warn("could not release the lock of {}", dir, e);
    }
  }
}
