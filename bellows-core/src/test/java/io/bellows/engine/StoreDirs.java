package io.bellows.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Finds table, region and store directories of a data directory in tests. */
final class StoreDirs {
  private StoreDirs() {}

  /** {@code tables/<id>-<table>}. */
  static Path table(Path dataDir, String table) throws IOException {
    try (Stream<Path> s = Files.list(dataDir.resolve("tables"))) {
      return s.filter(p -> p.getFileName().toString().endsWith("-" + table)).findFirst().orElseThrow();
    }
  }

  /** The region directories of a table, in region-id order. */
  static List<Path> regions(Path dataDir, String table) throws IOException {
    try (Stream<Path> s = Files.list(table(dataDir, table))) {
      return s.filter(p -> p.getFileName().toString().matches("[0-9]+"))
          .sorted(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString()))).toList();
    }
  }

  /** The store of a family of a table's first region (the only one of a table created unsplit). */
  static Path store(Path dataDir, String table, String family) {
    try {
      return regions(dataDir, table).get(0).resolve(family);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
