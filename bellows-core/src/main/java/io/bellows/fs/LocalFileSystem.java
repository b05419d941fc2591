package io.bellows.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The engine's default file system: the local disk through {@code java.nio}. Appends go straight to
 * the operating system (a {@link FileChannel} write), {@link WritableFile#sync} is {@code
 * force(true)}, {@link WritableFile#syncData} {@code force(false)}, a directory sync forces the
 * directory opened for reading, the lock is an OS file lock. Open files survive the interrupts of
 * their callers ({@link LocalReadableFile}, {@link LocalWritableFile}). Stateless; one shared
 * {@link #INSTANCE}, and {@link #DIRECT_READS}, which reads past the page cache.
 */
public final class LocalFileSystem implements FileSystem {
  public static final LocalFileSystem INSTANCE = new LocalFileSystem(false);

  /**
   * The local file system with every file opened for reading read by direct I/O ({@code O_DIRECT},
   * {@link DirectReadableFile}): reads the engine's caches miss go to the device, not the page cache.
   * Writes are as {@link #INSTANCE}'s. Fails to open files on a file system without direct I/O
   * (tmpfs): never silently cached.
   */
  public static final LocalFileSystem DIRECT_READS = new LocalFileSystem(true);

  private final boolean directReads;

  private static final boolean LINUX = System.getProperty("os.name", "").toLowerCase().contains("linux");

  private LocalFileSystem(boolean directReads) {
    this.directReads = directReads;
  }

  @Override
  public WritableFile create(Path file) throws IOException {
    return new LocalWritableFile(file);
  }

  @Override
  public ReadableFile open(Path file) throws IOException {
    if (Files.isDirectory(file)) { // some platforms open a directory and fail only on reading
      throw new IOException(file + " is a directory");
    }
    return directReads ? new DirectReadableFile(file) : new LocalReadableFile(file);
  }

  @Override
  public long length(Path file) throws IOException {
    return Files.size(file);
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("file system cannot rename atomically: " + from, e);
    }
  }

  @Override
  public void link(Path existing, Path link) throws IOException {
    Files.createLink(link, existing);
  }

  @Override
  public boolean delete(Path file) throws IOException {
    if (Files.isDirectory(file)) {
      throw new IOException(file + " is a directory, not a file");
    }
    return Files.deleteIfExists(file);
  }

  @Override
  public void truncate(Path file, long length) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      if (length > ch.size()) {
        throw new IOException(file + ": cannot truncate " + ch.size() + " bytes to " + length);
      }
      ch.truncate(length);
      ch.force(true);
    }
  }

  @Override
  public List<Path> list(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new NotDirectoryException(dir.toString());
    }
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.forEach(out::add);
    }
    out.sort(null);
    return out;
  }

  @Override
  public void createDirectories(Path dir) throws IOException {
    Files.createDirectories(dir);
  }

  @Override
  public boolean deleteDirectory(Path dir) throws IOException {
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new NotDirectoryException(dir.toString());
    }
    return Files.deleteIfExists(dir); // DirectoryNotEmptyException if it holds anything
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Some platforms cannot open directories for reading; Linux can. Only fail where it matters.
      if (LINUX) {
        throw e;
      }
    }
  }

  @Override
  public boolean exists(Path path) {
    return Files.exists(path);
  }

  @Override
  public boolean isDirectory(Path path) {
    return Files.isDirectory(path);
  }

  @Override
  public boolean isFile(Path path) {
    return Files.isRegularFile(path);
  }

  @Override
  public Lock tryLock(Path file, boolean create) throws IOException {
    FileChannel ch = create
        ? FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)
        : FileChannel.open(file, StandardOpenOption.WRITE);
    FileLock l;
    try {
      l = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      l = null; // held by another holder in this JVM
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
    if (l == null) {
      ch.close();
      return null;
    }
    FileLock held = l;
    return () -> {
      try {
        held.release();
      } finally {
        ch.close();
      }
    };
  }

  @Override
  public String toString() {
    return directReads ? "local (direct reads)" : "local";
  }
}
