package io.bellows.manifest;

import io.bellows.fs.AtomicFiles;
import io.bellows.fs.FileSystem;
import io.bellows.util.CorruptionException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The durable list of a store's live sorted files and the highest sequence id whose data is in them.
 * Written empty when the store is created ({@link #initialize}) and replaced atomically ({@link
 * AtomicFiles}) after every flush and compaction, so the set of live files changes in one step.
 * Sorted files in the store directory that it does not list are leftovers of an interrupted flush
 * or compaction and are deleted on open; a store directory without a manifest is damage, never an
 * empty store (its sorted files would otherwise be taken for leftovers and deleted).
 *
 * <p>Layout of the {@code MANIFEST} file (big-endian):
 *
 * <pre>
 *   offset  size  field
 *   0       4     magic "BLMF"
 *   4       1     format version (1)
 *   5       8     flushedSeqId: every edit with a sequence id &lt;= it is in the listed files
 *   13      8     nextFileId: a high-water mark, the engine's file-number counter when written
 *   21      4     n: number of live files
 *   25      8*n   file ids, oldest first (file name: %020d.sst)
 *   25+8n   4     CRC32C of bytes [0, 25+8n)
 * </pre>
 *
 * <p>File numbers are engine-wide (one counter for every store of the data directory), so {@code
 * nextFileId} is no longer the number this store uses next: it is above every file number handed
 * out when the manifest was written (1 in a new store's empty manifest). At open the engine starts
 * its counter above the largest {@code nextFileId}, listed number and sorted-file name on disk.
 */
public record StoreManifest(long flushedSeqId, long nextFileId, List<Long> fileIds) {
  public static final String FILE_NAME = "MANIFEST";
  private static final int MAGIC = 0x424C4D46; // "BLMF"
  /** The format version this build writes and reads. */
  public static final byte VERSION = 1;

  public StoreManifest {
    fileIds = Collections.unmodifiableList(new ArrayList<>(fileIds));
  }

  public static StoreManifest empty() {
    return new StoreManifest(0, 1, List.of());
  }

  /** The file name of a sorted file with this id. */
  public static String fileName(long fileId) {
    return String.format("%020d.sst", fileId);
  }

  /** Parses a sorted file's id from its name; -1 if the name is not one. */
  public static long parseFileId(String name) {
    if (name.length() != 24 || !name.endsWith(".sst")) {
      return -1;
    }
    try {
      return Long.parseLong(name.substring(0, 20));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Whether Bellows makes files of this name in a store directory: the manifest, sorted files and
   * their temporary names. Only such files are ever deleted there; anything else is left alone.
   */
  public static boolean isStoreFileName(String name) {
    String base = name.endsWith(".tmp") ? name.substring(0, name.length() - 4) : name;
    return base.equals(FILE_NAME) || parseFileId(base) >= 0;
  }

  /**
   * Creates a new store directory with an empty manifest, durably (the entries of the directory and
   * of every parent it needed, and the manifest's, are synced), so that from now on a missing
   * manifest can only mean damage.
   */
  public static void initialize(FileSystem fs, Path storeDir) throws IOException {
    AtomicFiles.createDirectories(fs, storeDir);
    empty().write(fs, storeDir);
  }

  /**
   * Reads the manifest of a store directory. A missing directory or manifest throws {@link
   * CorruptionException}: every store is created with one, so its absence means lost metadata.
   */
  public static StoreManifest load(FileSystem fs, Path storeDir) throws IOException {
    Path p = storeDir.resolve(FILE_NAME);
    byte[] b;
    try {
      b = fs.readAll(p);
    } catch (NoSuchFileException e) {
      throw new CorruptionException(missingMessage(fs, storeDir));
    }
    if (b.length < 29) {
      throw new CorruptionException(p + ": manifest of " + b.length + " bytes is too short");
    }
    ByteBuffer buf = ByteBuffer.wrap(b);
    if (buf.getInt() != MAGIC) {
      throw new CorruptionException(p + ": bad manifest magic at offset 0");
    }
    byte version = buf.get();
    if (version != VERSION) {
      throw new CorruptionException(p + ": unsupported manifest version " + version);
    }
    long flushed = buf.getLong();
    long next = buf.getLong();
    int n = buf.getInt();
    if (n < 0 || 25L + 8L * n + 4 != b.length) {
      throw new CorruptionException(p + ": manifest length " + b.length + " does not fit " + n + " files");
    }
    List<Long> ids = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      ids.add(buf.getLong());
    }
    int stored = buf.getInt();
    CRC32C crc = new CRC32C();
    crc.update(b, 0, b.length - 4);
    if ((int) crc.getValue() != stored) {
      throw new CorruptionException(p + ": manifest checksum mismatch at offset " + (b.length - 4));
    }
    return new StoreManifest(flushed, next, ids);
  }

  private static String missingMessage(FileSystem fs, Path storeDir) throws IOException {
    if (!fs.isDirectory(storeDir)) {
      return storeDir + ": the store directory is missing (removed outside Bellows?); refusing to"
          + " open the store, nothing was changed";
    }
    long sorted = fs.list(storeDir).stream().filter(f -> parseFileId(f.getFileName().toString()) >= 0).count();
    return storeDir.resolve(FILE_NAME) + ": the store manifest is missing (" + sorted
        + " sorted files present); refusing to open the store so that nothing is deleted or"
        + " lost; restore the MANIFEST from a backup";
  }

  /** Replaces the store's manifest atomically with this one. */
  public void write(FileSystem fs, Path storeDir) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(25 + 8 * fileIds.size() + 4);
    buf.putInt(MAGIC).put(VERSION).putLong(flushedSeqId).putLong(nextFileId).putInt(fileIds.size());
    for (long id : fileIds) {
      buf.putLong(id);
    }
    CRC32C crc = new CRC32C();
    crc.update(buf.array(), 0, buf.position());
    buf.putInt((int) crc.getValue());
    AtomicFiles.write(fs, storeDir.resolve(FILE_NAME), buf.array());
  }
}
