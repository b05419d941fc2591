package io.bellows.engine;

import io.bellows.fs.AtomicFiles;
import io.bellows.fs.FileSystem;
import io.bellows.fs.ReadableFile;
import io.bellows.fs.WritableFile;
import io.bellows.manifest.StoreManifest;
import io.bellows.store.FileCheck;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Copies a snapshot out of a data directory (export, for a backup) or into one (import, for a
 * restore elsewhere), while an engine may run on it: a committed snapshot's files never change.
 * Every sorted file is read back block by block after it is copied (the checksums of every block,
 * and its cell count against its metadata), the small files through their own checksums; a damaged
 * file stops the copy, named. The {@code SNAPSHOT} file is copied last, so a copy without it is
 * incomplete: running the same command again resumes it (a sorted file already there with the
 * source's length that reads back whole is kept) and an import refuses one.
 */
public final class SnapshotTransfer {
  private static final int COPY_CHUNK = 1 << 20;

  /** What a copy did: files copied, bytes copied, files kept from an earlier, interrupted copy. */
  public record Result(String name, int files, long bytes, int kept) {}

  private final FileSystem fs;
  private final PrintStream progress;
  private int files;
  private long bytes;
  private int kept;

  private SnapshotTransfer(FileSystem fs, PrintStream progress) {
    this.fs = fs;
    this.progress = progress;
  }

  /**
   * Copies committed snapshot {@code name} of {@code dataDir} to {@code to/name} (made if missing).
   *
   * @throws IllegalArgumentException if there is no such snapshot
   * @throws StorageException naming the file, if one is damaged or cannot be copied
   */
  public static Result export(FileSystem fs, Path dataDir, String name, Path to, PrintStream progress) {
    Snapshots.checkName(name);
    Path source = new Snapshots(fs, dataDir).dir(name);
    if (!fs.exists(source.resolve(Snapshots.INFO))) {
      throw new IllegalArgumentException("snapshot '" + name + "' does not exist in " + dataDir);
    }
    SnapshotTransfer t = new SnapshotTransfer(fs, progress);
    t.copy(source, to.resolve(name));
    return new Result(name, t.files, t.bytes, t.kept);
  }

  /**
   * Copies the exported snapshot in {@code from} (a directory written by {@link #export}) into the
   * snapshots of {@code dataDir}, under the name it had; {@code clone_snapshot} then makes a table
   * of it. A damaged file refuses the import and what was copied is deleted.
   *
   * @throws IllegalArgumentException if {@code from} is not a complete export, or a snapshot of
   *     that name exists
   */
  public static Result importSnapshot(FileSystem fs, Path from, Path dataDir, PrintStream progress) {
    if (!fs.exists(from.resolve(Snapshots.INFO))) {
      throw new IllegalArgumentException(from + " is not a complete snapshot export (it has no " + Snapshots.INFO
          + " file): run the export again to finish it");
    }
    String name;
    try {
      name = Snapshots.readInfo(fs, from).name();
    } catch (IOException e) {
      throw new StorageException("cannot read " + from.resolve(Snapshots.INFO), e);
    }
    Snapshots target = new Snapshots(fs, dataDir);
    if (target.exists(name)) {
      throw new IllegalArgumentException("snapshot '" + name + "' already exists in " + dataDir);
    }
    SnapshotTransfer t = new SnapshotTransfer(fs, progress);
    try {
      AtomicFiles.createDirectories(fs, dataDir.resolve(Snapshots.DIRECTORY));
      t.copy(from, target.dir(name));
    } catch (IOException | RuntimeException e) {
      try {
        target.deleteIfIncomplete(name);
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed); // the engine deletes an incomplete snapshot at its next open
      }
      throw e instanceof RuntimeException re ? re : new StorageException("cannot import " + from, e);
    }
    return new Result(name, t.files, t.bytes, t.kept);
  }

  /** Copies a snapshot directory: catalog, stores (manifest and sorted files), then SNAPSHOT. */
  private void copy(Path source, Path target) {
    try {
      Snapshots.readInfo(fs, source); // checked before anything is copied
      Catalog catalog = Catalog.load(fs, source);
      AtomicFiles.createDirectories(fs, target);
      copySmall(source.resolve(Catalog.FILE_NAME), target.resolve(Catalog.FILE_NAME));
      for (Catalog.Entry e : catalog.tables().values()) {
        for (Catalog.Span span : e.regions()) {
          String region = TableDirectories.regionName(span.id());
          for (var f : e.descriptor().families()) {
            copyStore(source.resolve(region).resolve(f.name()), target.resolve(region).resolve(f.name()));
          }
        }
      }
      fs.syncDirectory(target);
      copySmall(source.resolve(Snapshots.INFO), target.resolve(Snapshots.INFO)); // the commit point, last
      fs.syncDirectory(target);
      progress.printf("copied snapshot %s: %d sorted files, %,d bytes (%d already there)%n",
          target.getFileName(), files, bytes, kept);
    } catch (IOException e) {
      throw new StorageException("cannot copy snapshot " + source + " to " + target + ": " + e.getMessage(), e);
    }
  }

  private void copyStore(Path source, Path target) throws IOException {
    StoreManifest m = StoreManifest.load(fs, source);
    AtomicFiles.createDirectories(fs, target);
    for (long id : m.fileIds()) {
      String name = StoreManifest.fileName(id);
      copySortedFile(source.resolve(name), target.resolve(name), id);
    }
    fs.syncDirectory(target);
    m.write(fs, target);
  }

  /** Copies a sorted file through a {@code .tmp} name, then reads the copy back whole. */
  private void copySortedFile(Path source, Path target, long id) throws IOException {
    long length = fs.length(source);
    if (fs.exists(target) && fs.length(target) == length && check(target, id) == null) {
      kept++;
      return;
    }
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    fs.delete(tmp);
    fs.delete(target);
    try (ReadableFile in = fs.open(source); WritableFile out = fs.create(tmp)) {
      ByteBuffer buf = ByteBuffer.allocate(COPY_CHUNK);
      long pos = 0;
      while (pos < length) {
        buf.clear();
        int n = in.read(buf, pos);
        if (n < 0) {
          throw new IOException(source + ": ended at byte " + pos + " of " + length);
        }
        buf.flip();
        out.append(buf);
        pos += n;
      }
      out.sync();
    }
    String problem = check(tmp, id);
    if (problem != null) {
      fs.delete(tmp);
      throw new StorageException("sorted file " + source + " is damaged: " + problem + "; nothing of it was kept");
    }
    fs.rename(tmp, target);
    files++;
    bytes += length;
    progress.printf("  %s (%,d bytes)%n", target, length);
  }

  /** Copies a small checksummed file after reading it whole (its own checksum is checked by its reader). */
  private void copySmall(Path source, Path target) throws IOException {
    AtomicFiles.write(fs, target, fs.readAll(source));
  }

  /** Reads every block of a sorted file back; returns what is wrong (with the offset), or null. */
  private String check(Path file, long id) {
    FileCheck.Result r = FileCheck.check(fs, file, id);
    if (r.clean()) {
      return null;
    }
    FileCheck.Damage d = r.damages().get(0);
    return (d.offset() >= 0 ? "at byte offset " + d.offset() + ": " : "") + d.problem();
  }
}
