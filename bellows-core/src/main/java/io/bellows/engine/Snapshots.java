package io.bellows.engine;

import io.bellows.fs.AtomicFiles;
import io.bellows.fs.ChecksummedText;
import io.bellows.fs.FileSystem;
import io.bellows.region.Region;
import io.bellows.store.FileNumberAllocator;
import io.bellows.store.Store;
import io.bellows.util.CorruptionException;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshots of a data directory (docs/FORMAT.md#snapshots): each a directory
 * {@code snapshots/<name>/} holding the table as it was (a {@code CATALOG} of that one table: its
 * settings, families and regions), one store directory per region and family with hard links to
 * the sorted files and their {@code MANIFEST}, and last the {@code SNAPSHOT} file (name, table,
 * time), whose presence commits the snapshot. Hard links make a snapshot cheap and keep its files'
 * bytes whatever compactions, drops and restores do to the table's own names.
 *
 * <p>Not thread-safe: the engine calls it under its DDL lock.
 */
final class Snapshots {
  private static final Logger LOG = LoggerFactory.getLogger(Snapshots.class);
  static final String DIRECTORY = "snapshots";
  static final String INFO = "SNAPSHOT";
  static final String HEADER = "bellows-snapshot 1";
  /** Names as for tables: they become directory names. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");

  /** A committed snapshot, read back: what it says of itself and the table it holds. */
  record Loaded(SnapshotInfo info, Catalog.Entry table, Path dir) {
    Path regionDir(Catalog.Span span) {
      return dir.resolve(TableDirectories.regionName(span.id()));
    }
  }

  private final FileSystem fs;
  private final Path root;

  Snapshots(FileSystem fs, Path dataDir) {
    this.fs = fs;
    this.root = dataDir.resolve(DIRECTORY);
  }

  static void checkName(String name) {
    if (name == null || name.length() > 200 || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("invalid snapshot name '" + name + "': use letters, digits, '_', '-' and '.'"
          + " (not first), at most 200 characters");
    }
  }

  Path dir(String name) {
    return root.resolve(name);
  }

  boolean exists(String name) {
    return fs.exists(dir(name).resolve(INFO));
  }

  /** Every committed snapshot, by name. */
  List<SnapshotInfo> list() {
    List<SnapshotInfo> out = new ArrayList<>();
    if (!fs.isDirectory(root)) {
      return out;
    }
    try {
      for (Path p : fs.list(root)) {
        String name = p.getFileName().toString();
        if (NAME.matcher(name).matches() && fs.exists(p.resolve(INFO))) {
          out.add(readInfo(fs, p));
        }
      }
    } catch (IOException e) {
      throw new StorageException("cannot list the snapshots in " + root, e);
    }
    return out;
  }

  /**
   * Writes snapshot {@code name} of {@code table}: the catalog of the table, then each region's
   * stores linked from the open {@code regions} (their writes, flushes and compactions blocked by
   * the caller, so their file sets hold still) or, for a disabled table (null), from its store
   * directories on disk, then the SNAPSHOT file. A directory of that name without a SNAPSHOT file
   * (an interrupted snapshot) is deleted first.
   */
  void write(String name, String sourceName, Catalog.Entry table, DataDirectory layout, List<Region> regions,
      long nowMillis) {
    Path dir = dir(name);
    try {
      deleteIfIncomplete(name);
      AtomicFiles.createDirectories(fs, dir);
      int nextRegion = 1;
      for (Catalog.Span s : table.regions()) {
        nextRegion = Math.max(nextRegion, s.id() + 1);
      }
      new Catalog(Map.of(table.descriptor().name(), table), table.id() + 1, nextRegion).write(fs, dir);
      for (int i = 0; i < table.regions().size(); i++) {
        Catalog.Span span = table.regions().get(i);
        Path target = dir.resolve(TableDirectories.regionName(span.id()));
        if (regions != null) {
          regions.get(i).linkStoresInto(target);
        } else {
          Path source = layout.regionDir(table, span);
          for (var f : table.descriptor().families()) {
            Store.linkStore(fs, source.resolve(f.name()), target.resolve(f.name()), null);
          }
        }
      }
      fs.syncDirectory(dir);
      ChecksummedText.write(fs, dir.resolve(INFO), HEADER + "\nname " + name + "\ntable " + sourceName
          + "\ncreated " + nowMillis + "\n");
      fs.syncDirectory(dir);
    } catch (IOException | RuntimeException e) {
      try {
        deleteIfIncomplete(name);
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed); // an incomplete snapshot is deleted at the next open
      }
      throw e instanceof RuntimeException re ? re : new StorageException("cannot write snapshot '" + name + "'", e);
    }
  }

  /** Reads a committed snapshot; throws if there is none of that name, or it is damaged. */
  Loaded load(String name) {
    checkName(name);
    Path dir = dir(name);
    if (!exists(name)) {
      throw new IllegalArgumentException("snapshot '" + name + "' does not exist");
    }
    try {
      SnapshotInfo info = readInfo(fs, dir);
      Catalog c = Catalog.load(fs, dir);
      if (c.tables().size() != 1) {
        throw new CorruptionException(dir.resolve(Catalog.FILE_NAME) + ": a snapshot holds one table, this holds "
            + c.tables().size());
      }
      return new Loaded(info, c.tables().values().iterator().next(), dir);
    } catch (IOException e) {
      throw new StorageException("cannot read snapshot '" + name + "' in " + dir, e);
    }
  }

  /**
   * Links every store of the snapshot's region {@code span} into {@code target} under new file
   * numbers; returns the highest flushedSeqId among them (the engine's sequence must be above it).
   */
  long linkRegion(Loaded s, Catalog.Span span, Path target, FileNumberAllocator numbers) {
    long highest = 0;
    for (var f : s.table().descriptor().families()) {
      highest = Math.max(highest, Store.linkStore(fs, s.regionDir(span).resolve(f.name()), target.resolve(f.name()),
          numbers));
    }
    return highest;
  }

  /**
   * Deletes a snapshot: its SNAPSHOT file first (the snapshot is gone from then on), then what it
   * holds (only names Bellows makes; anything else is left and reported).
   */
  void delete(String name) {
    checkName(name);
    Path dir = dir(name);
    if (!exists(name)) {
      throw new IllegalArgumentException("snapshot '" + name + "' does not exist");
    }
    try {
      fs.delete(dir.resolve(INFO));
      fs.syncDirectory(dir);
      deleteContents(dir);
    } catch (IOException e) {
      throw new StorageException("cannot delete snapshot '" + name + "'", e);
    }
  }

  /** At open: deletes what interrupted snapshots and deletions left (directories without SNAPSHOT). */
  void deleteIncomplete() {
    if (!fs.isDirectory(root)) {
      return;
    }
    try {
      for (Path p : fs.list(root)) {
        String name = p.getFileName().toString();
        if (NAME.matcher(name).matches() && fs.isDirectory(p) && !fs.exists(p.resolve(INFO))) {
          LOG.info("deleting the incomplete snapshot {}", p);
          deleteContents(p);
        }
      }
    } catch (IOException e) {
      throw new StorageException("cannot clean up the snapshots in " + root, e);
    }
  }

  void deleteIfIncomplete(String name) throws IOException {
    Path dir = dir(name);
    if (fs.isDirectory(dir) && !fs.exists(dir.resolve(INFO))) {
      deleteContents(dir);
    }
  }

  /** Deletes the CATALOG, the region directories and the directory, if nothing else is in it. */
  private void deleteContents(Path dir) throws IOException {
    List<Path> foreign = new ArrayList<>();
    for (Path p : fs.list(dir)) {
      String n = p.getFileName().toString();
      if (n.equals(Catalog.FILE_NAME) || n.equals(Catalog.FILE_NAME + ".tmp") || n.equals(INFO + ".tmp")) {
        fs.delete(p);
      } else if (fs.isDirectory(p) && TableDirectories.isRegionDirectoryName(n)) {
        foreign.addAll(TableDirectories.deleteRegion(fs, p));
      } else {
        foreign.add(p);
      }
    }
    if (foreign.isEmpty()) {
      fs.deleteDirectory(dir);
      fs.syncDirectory(root);
    } else {
      LOG.warn("left {} in {}: not made by Bellows", foreign, dir);
    }
  }

  static SnapshotInfo readInfo(FileSystem fs, Path dir) throws IOException {
    Path p = dir.resolve(INFO);
    String body;
    try {
      body = ChecksummedText.read(fs, p, HEADER, "snapshot");
    } catch (NoSuchFileException e) {
      throw new CorruptionException(p + ": missing");
    }
    String name = null;
    String table = null;
    long created = -1;
    for (String line : body.split("\n")) {
      if (line.startsWith("name ")) {
        name = line.substring(5);
      } else if (line.startsWith("table ")) {
        table = line.substring(6);
      } else if (line.startsWith("created ")) {
        try {
          created = Long.parseLong(line.substring(8));
        } catch (NumberFormatException e) {
          throw new CorruptionException(p + ": bad creation time '" + line.substring(8) + "'");
        }
      }
    }
    if (name == null || table == null || created < 0) {
      throw new CorruptionException(p + ": a snapshot file needs name, table and created lines");
    }
    return new SnapshotInfo(name, table, created);
  }
}
