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
 * The directories of tables under {@code tables/}, named {@code <table id>-<table name>}, and the
 * one way the engine deletes them: only files Bellows makes (store manifests, sorted files and
 * their temporary names) and then the directories left empty. Anything else found there is left
 * in place and reported, so a foreign file under {@code tables/} is never lost.
 */
final class TableDirectories {
  private static final Pattern NAME = Pattern.compile("[0-9]+-[A-Za-z0-9_.-]+");

  private TableDirectories() {}

  static String name(int tableId, String table) {
    return tableId + "-" + table;
  }

  /** Whether Bellows could have made a directory of this name under {@code tables/}. */
  static boolean isTableDirectoryName(String name) {
    return NAME.matcher(name).matches();
  }

  /**
   * Deletes what Bellows made in a table directory (one level of family directories holding store
   * files) and every directory left empty. Returns the paths it left because Bellows did not make
   * them; the table directory itself stays when that list is not empty.
   */
  static List<Path> delete(Path tableDir) throws IOException {
    List<Path> foreign = new ArrayList<>();
    if (!Files.isDirectory(tableDir)) {
      return foreign;
    }
    try (DirectoryStream<Path> families = Files.newDirectoryStream(tableDir)) {
      for (Path family : families) {
        if (!Files.isDirectory(family)) {
          foreign.add(family);
          continue;
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
    if (foreign.isEmpty()) {
      Files.deleteIfExists(tableDir);
    }
    return foreign;
  }
}
