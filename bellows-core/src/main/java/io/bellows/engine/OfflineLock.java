package io.bellows.engine;

import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The data directory's {@code LOCK}, held by an offline tool while it changes a file of the
 * directory (e.g. {@code wal-dump --truncate}), so that it never changes files under a running
 * engine. Unlike the engine's own lock it never creates the lock file: a WAL file outside a data
 * directory (a copy) has no engine to guard against, and a foreign directory is left untouched.
 */
public final class OfflineLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private OfflineLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
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
    if (lockFile == null || !Files.isRegularFile(lockFile)) {
      return new OfflineLock(null, null);
    }
    FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.WRITE);
    FileLock l;
    try {
      l = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      l = null; // an engine of this JVM has it
    }
    if (l == null) {
      ch.close();
      throw new StorageException(dataDir + " is open in a running Bellows engine: close it before changing its"
          + " files; nothing was changed");
    }
    return new OfflineLock(ch, l);
  }

  @Override
  public void close() throws IOException {
    if (channel != null) {
      lock.release();
      channel.close();
    }
  }
}
