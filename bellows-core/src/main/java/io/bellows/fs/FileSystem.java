package io.bellows.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * Every file operation the engine makes, and nothing more: files are created once, appended to
 * sequentially, synced, read at positions, renamed atomically and deleted; directories are made,
 * listed, synced and removed when empty; the data directory is locked. No operation overwrites
 * bytes in place or maps a file into memory, so a distributed file system (HDFS) can implement it;
 * docs/design/fs.md maps each operation to HDFS and says where the guarantees differ.
 *
 * <p>Paths are {@link Path} values used as names: implementations other than {@link
 * LocalFileSystem} never hand them to {@code java.nio}.
 *
 * <p><b>Durability contract</b> (what the engine relies on, and what {@link MemFileSystem} models
 * for power loss): appended bytes survive a process crash once appended, and a power loss only once
 * {@link WritableFile#sync synced}; a creation, rename, link or deletion survives a power loss only
 * once the directory holding the name is {@link #syncDirectory synced}.
 *
 * <p>Implementations are thread-safe.
 */
public interface FileSystem {

  /** Creates a new, empty file for sequential appends; fails if {@code file} exists. */
  WritableFile create(Path file) throws IOException;

  /** Opens an existing file for positional reads. */
  ReadableFile open(Path file) throws IOException;

  /** The length of a file in bytes. */
  long length(Path file) throws IOException;

  /** Renames a file atomically, replacing {@code to} if it exists. Durable once both directories are synced. */
  void rename(Path from, Path to) throws IOException;

  /**
   * Gives an existing file a second name (a hard link) in the same file system; the file's bytes
   * are shared. Used by a region split for the daughters' copies of the parent's immutable files.
   */
  void link(Path existing, Path link) throws IOException;

  /** Deletes a file; returns false if there was none. Fails on a directory. */
  boolean delete(Path file) throws IOException;

  /**
   * Cuts a file to {@code length} bytes (not more than it has) and syncs it (a cut at the file's own
   * length only syncs it). Only for repairing or forcing the last file of a log whose writer is gone;
   * never applied to a file being written.
   */
  void truncate(Path file, long length) throws IOException;

  /** The entries of a directory (files and directories), sorted by name. */
  List<Path> list(Path dir) throws IOException;

  /** Makes a directory and any missing parents; nothing if it exists as a directory. */
  void createDirectories(Path dir) throws IOException;

  /** Deletes an empty directory; returns false if there was none. Fails if it holds anything. */
  boolean deleteDirectory(Path dir) throws IOException;

  /** Makes the creations, renames and deletions of names in {@code dir} durable. */
  void syncDirectory(Path dir) throws IOException;

  boolean exists(Path path);

  boolean isDirectory(Path path);

  /** Whether {@code path} is a file (not a directory). */
  boolean isFile(Path path);

  /**
   * Takes an exclusive lock on {@code file}, against every other holder in this or another
   * process; creates the file first if {@code create}, else fails when it is missing. Returns null
   * if another holder has it. A lock is released by {@link Lock#close} or when the process dies.
   */
  Lock tryLock(Path file, boolean create) throws IOException;

  /** A held lock. */
  interface Lock extends AutoCloseable {
    @Override
    void close() throws IOException;
  }

  /** Reads a whole (small) file. */
  default byte[] readAll(Path file) throws IOException {
    try (ReadableFile f = open(file)) {
      long n = f.length();
      if (n > Integer.MAX_VALUE - 16) {
        throw new IOException(file + ": too large to read at once (" + n + " bytes)");
      }
      byte[] b = new byte[(int) n];
      ByteBuffer buf = ByteBuffer.wrap(b);
      while (buf.hasRemaining()) {
        if (f.read(buf, buf.position()) < 0) {
          throw new IOException(file + ": file shrank while being read");
        }
      }
      return b;
    }
  }
}
