package io.bellows.engine;

import io.bellows.fs.FileSystem;
import io.bellows.manifest.StoreManifest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The directories of tables under {@code tables/}, named {@code <table id>-<table name>}, holding
 * one directory per region named by its id in decimal digits, holding one directory per family (a
 * store); and the one way the engine deletes them: only files Bellows makes (store manifests,
 * sorted files and their temporary names) and then the directories left empty. Anything else found
 * there (a file or directory of another name at any level) is left in place and reported, so a
 * foreign file under {@code tables/} is never lost.
 */
final class TableDirectories {
  private static final Pattern NAME = Pattern.compile("[0-9]+-[A-Za-z0-9_.-]+");
  private static final Pattern REGION = Pattern.compile("[0-9]+");

  private TableDirectories() {}

  static String name(int tableId, String table) {
    return tableId + "-" + table;
  }

  /** The directory of a region inside its table's directory: the region id in decimal. */
  static String regionName(int regionId) {
    return Integer.toString(regionId);
  }

  /** Whether Bellows could have made a directory of this name inside a table directory. */
  static boolean isRegionDirectoryName(String name) {
    return REGION.matcher(name).matches();
  }

  /** Whether Bellows could have made a directory of this name under {@code tables/}. */
  static boolean isTableDirectoryName(String name) {
    return NAME.matcher(name).matches();
  }

  /**
   * Deletes what Bellows made in a table directory (region directories named by digits, holding
   * family directories holding store files) and every directory left empty. Returns the paths it
   * left because Bellows did not make them; the directories holding them stay.
   */
  static List<Path> delete(FileSystem fs, Path tableDir) throws IOException {
    List<Path> foreign = new ArrayList<>();
    if (!fs.isDirectory(tableDir)) {
      return foreign;
    }
    for (Path region : fs.list(tableDir)) {
      if (!fs.isDirectory(region) || !isRegionDirectoryName(region.getFileName().toString())) {
        foreign.add(region);
        continue;
      }
      deleteRegion(fs, region, foreign);
    }
    if (foreign.isEmpty()) {
      fs.deleteDirectory(tableDir);
    }
    return foreign;
  }

  /**
   * Deletes what Bellows made in one region directory (family directories holding store files) and
   * the directories left empty; returns what it left because Bellows did not make it. A missing
   * directory is nothing to do.
   */
  static List<Path> deleteRegion(FileSystem fs, Path region) throws IOException {
    List<Path> foreign = new ArrayList<>();
    if (fs.isDirectory(region)) {
      deleteRegion(fs, region, foreign);
    }
    return foreign;
  }

  private static void deleteRegion(FileSystem fs, Path region, List<Path> foreign) throws IOException {
    int before = foreign.size();
    for (Path family : fs.list(region)) {
      deleteStore(fs, family, foreign);
    }
    if (foreign.size() == before) {
      fs.deleteDirectory(region);
    }
  }

  /** Deletes a store directory's Bellows files and the directory; returns what it left because Bellows did not make it. */
  static List<Path> deleteStore(FileSystem fs, Path family) throws IOException {
    List<Path> foreign = new ArrayList<>();
    if (fs.isDirectory(family)) {
      deleteStore(fs, family, foreign);
    }
    return foreign;
  }

  /** Deletes a store directory's Bellows files, and the directory if nothing else is in it. */
  private static void deleteStore(FileSystem fs, Path family, List<Path> foreign) throws IOException {
    if (!fs.isDirectory(family)) {
      foreign.add(family);
      return;
    }
    boolean empty = true;
    for (Path f : fs.list(family)) {
      if (fs.isFile(f) && StoreManifest.isStoreFileName(f.getFileName().toString())) {
        fs.delete(f);
      } else {
        foreign.add(f);
        empty = false;
      }
    }
    if (empty) {
      fs.deleteDirectory(family);
    }
  }
}
