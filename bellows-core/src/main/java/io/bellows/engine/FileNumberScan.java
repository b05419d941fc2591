package io.bellows.engine;

import io.bellows.fs.FileSystem;
import io.bellows.manifest.StoreManifest;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the engine-wide sorted-file counter starts at open: above every number that may be in use
 * anywhere under {@code tables/}. It runs before the open deletes or opens anything, so that the
 * rule is simple: no number of any file present at open is handed out again, whether the open
 * later deletes that file (a leftover of an interrupted flush, compaction or drop) or not, and
 * whatever happens to the deletion.
 *
 * <p>Counted: every listed store's manifest ({@code nextFileId} and the listed file numbers), of
 * enabled and disabled tables alike, and the number in every {@code <20 digits>.sst} or {@code
 * .sst.tmp} name in any store directory ({@code tables/<table>/<region>/<family>/}) of any table
 * and region directory, listed or not.
 */
final class FileNumberScan {
  private static final Logger LOG = LoggerFactory.getLogger(FileNumberScan.class);

  private FileNumberScan() {}

  /**
   * The first number to hand out (at least 1). A missing or damaged manifest of a listed store
   * fails here, as the store's open would, before anything changed.
   */
  static long firstFree(FileSystem fs, Path tables, Collection<Path> listedStoreDirs) throws IOException {
    long next = 1;
    Map<Long, Path> listedBy = new HashMap<>();
    int shared = 0;
    for (Path store : listedStoreDirs) {
      StoreManifest m = StoreManifest.load(fs, store);
      next = Math.max(next, m.nextFileId());
      for (long id : m.fileIds()) {
        next = Math.max(next, above(id, store));
        Path other = listedBy.putIfAbsent(id, store);
        if (other != null && !other.equals(store)) {
          shared++;
        }
      }
    }
    if (shared > 0) {
      // Directories written while numbers were per store: harmless for the counter (it starts above
      // them all); the shared numbers disappear as compactions rewrite those files.
      LOG.info("{} sorted-file numbers under {} are used by more than one store (files written before"
          + " numbers were engine-wide); new files get engine-wide numbers", shared, tables);
    }
    if (!fs.isDirectory(tables)) {
      return next;
    }
    for (Path table : fs.list(tables)) {
      if (!fs.isDirectory(table) || !TableDirectories.isTableDirectoryName(table.getFileName().toString())) {
        continue; // not made by Bellows: never a store
      }
      for (Path region : fs.list(table)) {
        if (!fs.isDirectory(region) || !TableDirectories.isRegionDirectoryName(region.getFileName().toString())) {
          continue; // not made by Bellows: holds no store
        }
        for (Path store : fs.list(region)) {
          if (fs.isDirectory(store)) {
            next = Math.max(next, aboveNamesIn(fs, store));
          }
        }
      }
    }
    return next;
  }

  /** One above the highest number in a sorted-file name (final or temporary) in a store directory. */
  private static long aboveNamesIn(FileSystem fs, Path store) throws IOException {
    long next = 1;
    for (Path f : fs.list(store)) {
      long id = numberOf(f.getFileName().toString());
      if (id >= 0) {
        next = Math.max(next, above(id, f));
      }
    }
    return next;
  }

  /** The number in {@code <20 digits>.sst} or {@code <20 digits>.sst.tmp}; -1 for other names. */
  static long numberOf(String name) {
    String base = name.endsWith(".tmp") ? name.substring(0, name.length() - 4) : name;
    return StoreManifest.parseFileId(base);
  }

  private static long above(long id, Path where) {
    if (id == Long.MAX_VALUE) {
      throw new StorageException(where + ": sorted-file number " + id + " leaves no number to hand out");
    }
    return id + 1;
  }
}
