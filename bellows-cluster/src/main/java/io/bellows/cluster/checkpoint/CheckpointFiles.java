package io.bellows.cluster.checkpoint;

import io.bellows.fs.FileSystem;
import io.bellows.fs.ReadableFile;
import io.bellows.manifest.StoreManifest;
import io.bellows.sstable.BlockSource;
import io.bellows.sstable.IndexEntry;
import io.bellows.sstable.SortedFileReader;
import io.bellows.util.StorageException;
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
   * length and CRC32C against the descriptor's, read back whole (a file a fetch did not just write),
   * and a sorted file's shape ({@link #structureProblem}).
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
    return structureProblem(fs, p, f);
  }

  /**
   * What is wrong with the shape of the checkpoint's file {@code f}, written as {@code file} with
   * the bytes a fetch checked against the descriptor's CRC32C, or null: a sorted file's trailer,
   * metadata, index and Bloom blocks (each checked as it is read) and every data block's place
   * within the file. Its data blocks are not read back: the CRC32C already says the bytes are the
   * leader's, and a data block damaged there as well (it was taken with the leader's checksum)
   * is the leader's to find, whose reads and compactions check every block; reading each block
   * back here decompressed the whole region a second time for nothing it could mend.
   */
  static String structureProblem(FileSystem fs, Path file, CheckpointManifest.FileEntry f) {
    String name = f.path().substring(f.path().lastIndexOf('/') + 1);
    long id = StoreManifest.parseFileId(name);
    if (id < 0) {
      return null; // not a sorted file: the CRC32C is all there is to check
    }
    SortedFileReader r;
    try {
      r = SortedFileReader.open(fs, file, id, BlockSource.Wrapper.IDENTITY);
    } catch (StorageException e) {
      return f.path() + ": " + e.getMessage();
    }
    try {
      for (IndexEntry e : r.dataBlockIndex()) {
        if (e.offset() < 0 || e.offset() + e.onDiskSize() > f.length()) {
          return f.path() + ": the index places a data block at bytes " + e.offset() + "+" + e.onDiskSize()
              + ", beyond the file's " + f.length();
        }
      }
      return null;
    } catch (StorageException e) {
      return f.path() + ": " + e.getMessage();
    } finally {
      r.release();
    }
  }
}
