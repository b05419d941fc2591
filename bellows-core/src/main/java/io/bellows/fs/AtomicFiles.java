package io.bellows.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Crash-safe steps made of file-system operations: replacing a small file (manifests, the catalog,
 * OPTIONS) and making directories whose names survive a power loss.
 */
public final class AtomicFiles {
  private AtomicFiles() {}

  /**
   * Replaces {@code target} with {@code content}: writes a temporary sibling, syncs it, renames it
   * over the target atomically, syncs the directory. After a crash at any moment the target holds
   * either the old or the new content, never a mix. A leftover temporary file is replaced next time.
   */
  public static void write(FileSystem fs, Path target, byte[] content) throws IOException {
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    fs.delete(tmp); // "create" never overwrites: a crash may have left one
    try (WritableFile f = fs.create(tmp)) {
      f.append(ByteBuffer.wrap(content));
      f.sync();
    }
    moveAtomically(fs, tmp, target);
  }

  /** Renames {@code from} to {@code to} atomically and syncs the directory of {@code to}. */
  public static void moveAtomically(FileSystem fs, Path from, Path to) throws IOException {
    fs.rename(from, to);
    fs.syncDirectory(to.toAbsolutePath().getParent());
  }

  /**
   * Makes {@code dir} and its missing parents, syncing the parent of each directory made, so that
   * none of them can vanish in a power loss.
   */
  public static void createDirectories(FileSystem fs, Path dir) throws IOException {
    Path abs = dir.toAbsolutePath().normalize();
    if (fs.isDirectory(abs)) {
      return;
    }
    Path parent = abs.getParent();
    if (parent != null) {
      createDirectories(fs, parent);
    }
    fs.createDirectories(abs);
    if (parent != null) {
      fs.syncDirectory(parent);
    }
  }
}
