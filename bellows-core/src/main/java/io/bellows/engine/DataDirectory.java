package io.bellows.engine;

import io.bellows.fs.FileSystem;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The layout of a data directory ({@code CATALOG}, {@code OPTIONS}, {@code LOCK}, {@code wal/},
 * {@code tables/<table>/<region>/<family>/}, docs/FORMAT.md) and the checks and clean-ups an open
 * makes on it: refusing what is not a Bellows directory, and deleting what a crash left of a drop,
 * a create or a split — only ever names Bellows makes ({@link TableDirectories}).
 */
final class DataDirectory {
  private static final Logger LOG = LoggerFactory.getLogger(DataDirectory.class);
  private static final String TABLES = "tables";
  private static final String WAL = "wal";

  private final FileSystem fs;
  private final Path dir;

  DataDirectory(FileSystem fs, Path dir) {
    this.fs = fs;
    this.dir = dir;
  }

  Path tables() {
    return dir.resolve(TABLES);
  }

  Path wal() {
    return dir.resolve(WAL);
  }

  Path tableDir(Catalog.Entry e) {
    return tables().resolve(TableDirectories.name(e.id(), e.descriptor().name()));
  }

  Path regionDir(Catalog.Entry e, Catalog.Span span) {
    return tableDir(e).resolve(TableDirectories.regionName(span.id()));
  }

  /** Refuses, before anything is written, a path that is not a directory or not a Bellows store. */
  static void checkOpenable(FileSystem fs, Path dir) {
    if (fs.exists(dir) && !fs.isDirectory(dir)) {
      throw new StorageException("cannot open " + dir + ": it is a file, not a directory");
    }
    try {
      if (fs.isDirectory(dir) && !Catalog.exists(fs, dir) && !isNew(fs, dir)) {
        throw new StorageException("cannot open " + dir + ": it holds files but no " + Catalog.FILE_NAME
            + ", so it is not a Bellows data directory or its catalog was lost; nothing was changed."
            + " Open an empty or new directory, or restore " + Catalog.FILE_NAME + " from a backup");
      }
    } catch (IOException e) {
      throw new StorageException("cannot open " + dir, e);
    }
  }

  /**
   * Whether a directory without a catalog is new: nothing but the lock, empty subdirectories and
   * snapshots (imported into a new directory: each holds its own table's catalog).
   */
  static boolean isNew(FileSystem fs, Path dir) throws IOException {
    for (Path p : fs.list(dir)) {
      String name = p.getFileName().toString();
      boolean emptyOwnDir = (name.equals(TABLES) || name.equals(WAL)) && fs.isDirectory(p) && fs.list(p).isEmpty();
      boolean snapshots = name.equals(Snapshots.DIRECTORY) && fs.isDirectory(p);
      if (!name.equals(DirectoryLock.FILE_NAME) && !emptyOwnDir && !snapshots) {
        return false;
      }
    }
    return true;
  }

  /** The store directories of every region of every table the catalog lists, enabled or disabled. */
  List<Path> listedStoreDirectories(Catalog catalog) {
    List<Path> out = new ArrayList<>();
    for (Catalog.Entry e : catalog.tables().values()) {
      for (Catalog.Span span : e.regions()) {
        for (ColumnFamilyDescriptor f : e.descriptor().families()) {
          out.add(regionDir(e, span).resolve(f.name()));
        }
      }
    }
    return out;
  }

  /**
   * Deletes the directories of tables that are no longer listed: a drop or a create interrupted by
   * a crash. Only entries named as Bellows names table directories are touched, and in them only
   * the files Bellows makes (see {@link TableDirectories}).
   */
  void deleteUnlistedTableDirectories(Catalog catalog) throws IOException {
    Set<String> live = new HashSet<>();
    for (Catalog.Entry e : catalog.tables().values()) {
      live.add(tableDir(e).getFileName().toString());
    }
    for (Path p : fs.list(tables())) {
      String name = p.getFileName().toString();
      if (live.contains(name)) {
        continue;
      }
      if (!fs.isDirectory(p) || !TableDirectories.isTableDirectoryName(name)) {
        LOG.warn("{} was not made by Bellows; leaving it alone", p);
        continue;
      }
      LOG.info("deleting {} of a dropped table", p);
      deleteTableDirectory(fs, p);
    }
  }

  /**
   * A split that did not commit (the catalog holds its intent and still lists the parent): deletes
   * the daughters' directories, which hold only links to the parent's files and manifests, and
   * writes the catalog without the intent, which it returns. The parent is whole: its files were
   * only linked.
   */
  Catalog rollBackSplitIntent(Catalog catalog) throws IOException {
    Catalog.SplitIntent i = catalog.intent();
    if (i == null) {
      return catalog;
    }
    for (Catalog.Entry e : catalog.tables().values()) {
      if (e.id() == i.tableId()) {
        for (int daughter : new int[] {i.daughterA(), i.daughterB()}) {
          Path d = tableDir(e).resolve(TableDirectories.regionName(daughter));
          List<Path> left = TableDirectories.deleteRegion(fs, d);
          if (!left.isEmpty()) {
            LOG.warn("left {} in {}: not made by Bellows", left, d);
          }
        }
      }
    }
    LOG.info("rolled back the unfinished split of region {} of {}", i.parent(), dir);
    Catalog next = catalog.withoutIntent();
    next.write(fs, dir);
    return next;
  }

  /**
   * Deletes the stores of a listed region whose family the table no longer has: a family deletion
   * whose cleanup a crash interrupted. Only Bellows' files are deleted.
   */
  private void deleteUnlistedStores(Path region, Set<String> families) throws IOException {
    for (Path store : fs.list(region)) {
      if (fs.isDirectory(store) && !families.contains(store.getFileName().toString())
          && fs.exists(store.resolve(io.bellows.manifest.StoreManifest.FILE_NAME))) {
        LOG.info("deleting {} of a deleted column family", store);
        List<Path> left = TableDirectories.deleteStore(fs, store);
        if (!left.isEmpty()) {
          LOG.warn("left {} in {}: not made by Bellows", left, store);
        }
      }
    }
  }

  /**
   * Deletes the directories of regions that a listed table no longer lists: a split parent whose
   * cleanup a crash interrupted. Only Bellows' files are deleted.
   */
  void deleteUnlistedRegionDirectories(Catalog.Entry e) throws IOException {
    Path td = tableDir(e);
    if (!fs.isDirectory(td)) {
      return;
    }
    Set<String> live = new HashSet<>();
    for (Catalog.Span span : e.regions()) {
      live.add(TableDirectories.regionName(span.id()));
    }
    Set<String> families = new HashSet<>();
    for (ColumnFamilyDescriptor f : e.descriptor().families()) {
      families.add(f.name());
    }
    for (Path p : fs.list(td)) {
      String name = p.getFileName().toString();
      if (live.contains(name) && fs.isDirectory(p)) {
        deleteUnlistedStores(p, families);
      }
      if (!live.contains(name) && fs.isDirectory(p) && TableDirectories.isRegionDirectoryName(name)) {
        LOG.info("deleting {} of a region no longer listed (a split parent)", p);
        List<Path> left = TableDirectories.deleteRegion(fs, p);
        if (!left.isEmpty()) {
          LOG.warn("left {} in {}: not made by Bellows", left, p);
        }
      }
    }
  }

  /** Deletes a table's directory, Bellows' files only; what else is in it stays, with a warning. */
  static void deleteTableDirectory(FileSystem fs, Path tableDir) throws IOException {
    List<Path> left = TableDirectories.delete(fs, tableDir);
    if (!left.isEmpty()) {
      LOG.warn("left {} in {}: not made by Bellows", left, tableDir);
    }
  }
}
