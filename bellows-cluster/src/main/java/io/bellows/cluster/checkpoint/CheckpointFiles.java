package io.bellows.cluster.checkpoint;

import io.bellows.fs.FileSystem;
import io.bellows.fs.ReadableFile;
import io.bellows.manifest.StoreManifest;
import io.bellows.store.FileCheck;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/** File steps shared by the leader's and the follower's side of a checkpoint. */
final class CheckpointFiles {
  /** The directory of a checkpoint that holds the region's files, in the checkpoint and in staging. */
  static final String REGION = "region";
  private static final int READ_CHUNK = 1 << 20;

  private CheckpointFiles() {}

  /** Every regular file under {@code dir}, as paths relative to {@code root} ('/'-separated), sorted. */
  static List<String> listFiles(FileSystem fs, Path root, Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    for (Path p : fs.list(dir)) {
      if (fs.isDirectory(p)) {
        out.addAll(listFiles(fs, root, p));
      } else {
        out.add(relative(root, p));
      }
    }
    return out;
  }

  static String relative(Path root, Path p) {
    StringBuilder sb = new StringBuilder();
    for (Path part : root.relativize(p)) {
      if (!sb.isEmpty()) {
        sb.append('/');
      }
      sb.append(part);
    }
    return sb.toString();
  }

  static Path resolve(Path root, String relative) {
    CheckpointManifest.checkPath(relative);
    Path p = root;
    for (String part : relative.split("/")) {
      p = p.resolve(part);
    }
    return p;
  }

  /** The CRC32C of a whole file. */
  static int crc(FileSystem fs, Path file) throws IOException {
    CRC32C crc = new CRC32C();
    try (ReadableFile in = fs.open(file)) {
      long length = in.length();
      ByteBuffer buf = ByteBuffer.allocate(READ_CHUNK);
      long pos = 0;
      while (pos < length) {
        buf.clear();
        int n = in.read(buf, pos);
        if (n < 0) {
          throw new IOException(file + ": ended at byte " + pos + " of " + length);
        }
        buf.flip();
        crc.update(buf);
        pos += n;
      }
    }
    return (int) crc.getValue();
  }

  static int crc(byte[] bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes);
    return (int) crc.getValue();
  }

  /**
   * What is wrong with the file {@code path} of a checkpoint held in {@code root}, or null: its
   * length and CRC32C against the descriptor's, and a sorted file's every block read back.
   */
  static String problem(FileSystem fs, Path root, CheckpointManifest.FileEntry f) throws IOException {
    Path p = resolve(root, f.path());
    if (!fs.isFile(p)) {
      return f.path() + " is missing";
    }
    long length = fs.length(p);
    if (length != f.length()) {
      return f.path() + " has " + length + " bytes, the checkpoint says " + f.length();
    }
    int crc = crc(fs, p);
    if (crc != f.crc32c()) {
      return f.path() + String.format(": CRC32C %08x, the checkpoint says %08x", crc, f.crc32c());
    }
    long id = StoreManifest.parseFileId(p.getFileName().toString());
    if (id >= 0) {
      FileCheck.Result r = FileCheck.check(fs, p, id);
      if (!r.clean()) {
        FileCheck.Damage d = r.damages().get(0);
        return f.path() + (d.offset() >= 0 ? " at byte offset " + d.offset() : "") + ": " + d.problem();
      }
    }
    return null;
  }
}
