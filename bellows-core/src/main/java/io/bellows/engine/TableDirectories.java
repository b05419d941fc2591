package io.bellows.engine;

import io.bellows.manifest.StoreManifest;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
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
  static List<Path> delete(Path tableDir) throws IOException {
    List<Path> foreign = new ArrayList<>();
    if (!Files.isDirectory(tableDir)) {
      return foreign;
    }
    try (DirectoryStream<Path> regions = Files.newDirectoryStream(tableDir)) {
      for (Path region : regions) {
        if (!Files.isDirectory(region) || !isRegionDirectoryName(region.getFileName().toString())) {
          foreign.add(region);
          continue;
        }
        deleteRegion(region, foreign);
      }
    }
    if (foreign.isEmpty()) {
      Files.deleteIfExists(tableDir);
    }
    return foreign;
  }

  /**
   * Deletes what Bellows made in one region directory (family directories holding store files) and
   * the directories left empty; returns what it left because Bellows did not make it. A missing
   * directory is nothing to do.
   */
  static List<Path> deleteRegion(Path region) throws IOException {
    List<Path> foreign = new ArrayList<>();
    if (Files.isDirectory(region)) {
      deleteRegion(region, foreign);
    }
    return foreign;
  }

  private static void deleteRegion(Path region, List<Path> foreign) throws IOException {
    int before = foreign.size();
    try (DirectoryStream<Path> families = Files.newDirectoryStream(region)) {
      for (Path family : families) {
        deleteStore(family, foreign);
      }
    }
    if (foreign.size() == before) {
      Files.deleteIfExists(region);
    }
  }

  /** Deletes a store directory's Bellows files, and the directory if nothing else is in it. */
  private static void deleteStore(Path family, List<Path> foreign) throws IOException {
    if (!Files.isDirectory(family)) {
      foreign.add(family);
      return;
    }
    boolean empty = true;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(family)) {
      for (Path f : files) {
        if (Files.isRegularFile(f) && StoreManifest.isStoreFileName(f.getFileName().toString())) {
          Files.deleteIfExists(f);
        } else {
          foreign.add(f);
          empty = false;
        }
      }
    }
    if (empty) {
      Files.deleteIfExists(family);
    }
  }
}
