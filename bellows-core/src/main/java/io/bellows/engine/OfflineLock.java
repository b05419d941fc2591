package io.bellows.engine;

import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The data directory's {@code LOCK}, held by an offline tool while it changes a file of the
 * directory (e.g. {@code wal-dump --truncate}), so that it never changes files under a running
 * engine. Unlike the engine's own lock it never creates the lock file: a WAL file outside a data
 * directory (a copy) has no engine to guard against, and a foreign directory is left untouched.
 */
public final class OfflineLock implements AutoCloseable {
  /** Null when there was no lock file to take. */
  private final FileSystem.Lock lock;

  private OfflineLock(FileSystem.Lock lock) {
    this.lock = lock;
  }

  /**
   * Locks the data directory that holds {@code walFile} ({@code <dir>/wal/<file>}), if it has a
   * {@code LOCK} file; throws {@link StorageException} naming the directory if an engine holds it.
   */
  public static OfflineLock forWalFile(Path walFile) throws IOException {
    Path walDir = walFile.toAbsolutePath().getParent();
    return forDataDirectory(walDir == null ? null : walDir.getParent());
  }

  /**
   * Locks {@code dataDir} if it has a {@code LOCK} file; throws {@link StorageException} naming the
   * directory if an engine holds it.
   */
  public static OfflineLock forDataDirectory(Path dataDir) throws IOException {
    Path lockFile = dataDir == null ? null : dataDir.resolve(DirectoryLock.FILE_NAME);
    FileSystem fs = LocalFileSystem.INSTANCE; // offline tools work on the local disk
    if (lockFile == null || !fs.isFile(lockFile)) {
      return new OfflineLock(null);
    }
    FileSystem.Lock l = fs.tryLock(lockFile, false);
    if (l == null) {
      throw new StorageException(dataDir + " is open in a running Bellows engine: close it before changing its"
          + " files; nothing was changed");
    }
    return new OfflineLock(l);
  }

  @Override
  public void close() throws IOException {
    if (lock != null) {
      lock.close();
    }
  }
}
