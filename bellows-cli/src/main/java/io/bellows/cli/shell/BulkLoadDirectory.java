package io.bellows.cli.shell;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The files of a bulk-load directory, laid out as HBase's bulk load wants it: one subdirectory per
 * column family, named after it, holding that family's sorted files (written by {@code
 * BulkFileWriter}). Names starting with {@code .} or {@code _} are skipped, as HBase skips them
 * (checksums, markers of the job that wrote the files). Paths are made absolute, as a server reads
 * them from its own disk. Stateless.
 */
public final class BulkLoadDirectory {
  private BulkLoadDirectory() {}

  /**
   * Family name -&gt; its files, in name order.
   *
   * @throws IllegalArgumentException if {@code dir} is no directory, holds a plain file, or no file at all
   */
  public static Map<String, List<Path>> read(Path dir) {
    Path root = dir.toAbsolutePath().normalize();
    if (!Files.isDirectory(root)) {
      throw new IllegalArgumentException(root + " is not a directory (a bulk load reads DIR/family/file)");
    }
    Map<String, List<Path>> out = new TreeMap<>();
    for (Path entry : list(root)) {
      if (skipped(entry)) {
        continue;
      }
      if (!Files.isDirectory(entry)) {
        throw new IllegalArgumentException(entry + " is a file: a bulk-load directory holds one directory per column"
            + " family, named after it, with the family's sorted files");
      }
      List<Path> files = new ArrayList<>();
      for (Path f : list(entry)) {
        if (skipped(f)) {
          continue;
        }
        if (!Files.isRegularFile(f)) {
          throw new IllegalArgumentException(f + " is not a file: a family's directory holds its sorted files only");
        }
        files.add(f);
      }
      if (!files.isEmpty()) {
        out.put(entry.getFileName().toString(), files);
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no files to load in " + root + " (a bulk load reads DIR/family/file)");
    }
    return out;
  }

  /** How many files there are in all. */
  public static int count(Map<String, List<Path>> files) {
    return files.values().stream().mapToInt(List::size).sum();
  }

  private static boolean skipped(Path p) {
    String name = p.getFileName().toString();
    return name.startsWith(".") || name.startsWith("_");
  }

  private static List<Path> list(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }
}
