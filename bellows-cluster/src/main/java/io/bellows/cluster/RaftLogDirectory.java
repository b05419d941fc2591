package io.bellows.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Deletes a group's log directory that Ratis made for this node — only the names Ratis makes there
 * (its lock, {@code current/} with the metadata and log segments, {@code sm/} with state machine
 * snapshots, an empty {@code tmp/}): anything else was put there by someone else, and stays, with
 * the directories that hold it.
 */
final class RaftLogDirectory {
  /** Ratis' names in {@code current/}: its metadata, closed and open log segments, their temporary and corrupt forms. */
  private static final Pattern CURRENT = Pattern.compile(
      "(raft-meta(\\.conf)?|log_\\d+-\\d+|log_inprogress_\\d+)(\\..*)?");
  /** Ratis' names in {@code sm/}: a snapshot, its digest, their temporary and corrupt forms. */
  private static final Pattern SNAPSHOTS = Pattern.compile("snapshot\\.\\d+_\\d+(\\..*)?");

  private RaftLogDirectory() {}

  /** Deletes what Ratis made in {@code dir} and, if nothing else is there, {@code dir}; returns what it left. */
  static List<Path> delete(Path dir) throws IOException {
    List<Path> left = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return left;
    }
    for (Path p : list(dir)) {
      String name = p.getFileName().toString();
      if (Files.isDirectory(p) && name.equals("current")) {
        deleteMatching(p, CURRENT, left);
      } else if (Files.isDirectory(p) && name.equals("sm")) {
        deleteMatching(p, SNAPSHOTS, left);
      } else if (Files.isDirectory(p) && name.equals("tmp")) {
        left.addAll(list(p)); // Ratis' staging of a snapshot install, which Bellows does not use: nothing of Ratis'
        deleteIfEmpty(p);
      } else if (Files.isRegularFile(p) && name.equals("in_use.lock")) {
        Files.delete(p);
      } else {
        left.add(p);
      }
    }
    deleteIfEmpty(dir);
    return left;
  }

  private static void deleteMatching(Path dir, Pattern names, List<Path> left) throws IOException {
    for (Path f : list(dir)) {
      if (Files.isRegularFile(f) && names.matcher(f.getFileName().toString()).matches()) {
        Files.delete(f);
      } else {
        left.add(f);
      }
    }
    deleteIfEmpty(dir);
  }

  /** Deletes {@code dir} if it is empty; if not, what is in it is already in {@code left}. */
  /** Deletes {@code dir} if nothing is left in it (what is left there is already in the caller's list). */
  private static void deleteIfEmpty(Path dir) throws IOException {
    if (list(dir).isEmpty()) {
      Files.delete(dir);
    }
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }
}
