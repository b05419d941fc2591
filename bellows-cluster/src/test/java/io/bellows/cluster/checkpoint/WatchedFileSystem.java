package io.bellows.cluster.checkpoint;

import io.bellows.fs.FileSystem;
import io.bellows.fs.LocalFileSystem;
import io.bellows.fs.ReadableFile;
import io.bellows.fs.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The local file system, telling a test which files were opened for reading and how many bytes were appended. */
final class WatchedFileSystem implements FileSystem {
  private final FileSystem fs = LocalFileSystem.INSTANCE;
  final Set<Path> opened = ConcurrentHashMap.newKeySet();
  final AtomicLong appended = new AtomicLong();

  @Override
  public WritableFile create(Path file) throws IOException {
    WritableFile w = fs.create(file);
    return new WritableFile() {
      @Override
      public void append(ByteBuffer src) throws IOException {
        int n = src.remaining();
        w.append(src);
        appended.addAndGet(n);
      }

      @Override
      public void sync() throws IOException {
        w.sync();
      }

      @Override
      public long size() {
        return w.size();
      }

      @Override
      public void close() throws IOException {
        w.close();
      }
    };
  }

  @Override
  public ReadableFile open(Path file) throws IOException {
    opened.add(file);
    return fs.open(file);
  }

  @Override
  public long length(Path file) throws IOException {
    return fs.length(file);
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    fs.rename(from, to);
  }

  @Override
  public void link(Path existing, Path link) throws IOException {
    fs.link(existing, link);
  }

  @Override
  public boolean delete(Path file) throws IOException {
    return fs.delete(file);
  }

  @Override
  public void truncate(Path file, long length) throws IOException {
    fs.truncate(file, length);
  }

  @Override
  public List<Path> list(Path dir) throws IOException {
    return fs.list(dir);
  }

  @Override
  public void createDirectories(Path dir) throws IOException {
    fs.createDirectories(dir);
  }

  @Override
  public boolean deleteDirectory(Path dir) throws IOException {
    return fs.deleteDirectory(dir);
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    fs.syncDirectory(dir);
  }

  @Override
  public boolean exists(Path path) {
    return fs.exists(path);
  }

  @Override
  public boolean isDirectory(Path path) {
    return fs.isDirectory(path);
  }

  @Override
  public boolean isFile(Path path) {
    return fs.isFile(path);
  }

  @Override
  public Lock tryLock(Path file, boolean create) throws IOException {
    return fs.tryLock(file, create);
  }
}
