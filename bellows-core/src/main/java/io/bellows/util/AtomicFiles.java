package io.bellows.util;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Crash-safe replacement of small files (manifests, the catalog): write a temporary sibling, force
 * it, rename it over the target atomically, force the directory. After a crash at any moment the
 * target holds either the old or the new content, never a mix.
 */
public final class AtomicFiles {
  private AtomicFiles() {}

  public static void write(Path target, byte[] content) throws IOException {
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer buf = ByteBuffer.wrap(content);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(true);
    }
    moveAtomically(tmp, target);
  }

  /** Renames {@code from} to {@code to} atomically and forces the directory entry. */
  public static void moveAtomically(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("file system cannot rename atomically: " + from, e);
    }
    fsyncDirectory(to.toAbsolutePath().getParent());
  }

  /** Forces a directory so that renames and creations in it survive a power loss. */
  public static void fsyncDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Some platforms cannot open directories for reading; Linux can. Only fail where it matters.
      if (System.getProperty("os.name", "").toLowerCase().contains("linux")) {
        throw e;
      }
    }
  }
}
