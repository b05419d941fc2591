package io.bellows.cluster.server;

import io.bellows.cluster.checkpoint.CheckpointFetcher;
import io.bellows.cluster.checkpoint.CheckpointInstaller;
import io.bellows.cluster.checkpoint.CheckpointManifest;
import io.bellows.cluster.region.RegionApplier;
import io.bellows.manifest.StoreManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The names Bellows makes in a replica's directory ({@code regions/GROUP/}), and the deletion of a
 * dropped replica that deletes only those: anything else there was put by someone else, and stays,
 * with the directories holding it.
 *
 * <pre>
 * region.txt                 what the replica is (ReplicaDirectories)
 * split.txt                  a split parent's marker: where its log split, and into what (ReplicaSplits)
 * answered-calls             the answered calls (RegionApplier)
 * region/ FAMILY/ ...        the region: per family, its manifest and sorted files; at the top, a
 *                            checkpoint's answered-calls
 * region.create/             a new replica's stores being made
 * region.checkpoint/         a fetched checkpoint: CHECKPOINT or FETCHING, region/ (files .part while fetched)
 * region.install             an install committed; region.old/ and region.new/ during its switch
 * checkpoints/TERM-INDEX-N/  the checkpoints this replica serves: CHECKPOINT, region/ (links)
 * </pre>
 *
 * Each file may also be seen under its name with {@code .tmp} (written, then renamed).
 */
final class ReplicaFiles {
  static final String REGION = "region";
  static final String CHECKPOINTS = "checkpoints";
  private static final Set<String> TOP_FILES = Set.of(ReplicaDirectories.REGION_FILE, ReplicaSplits.SPLIT_FILE,
      RegionApplier.ANSWERED_CALLS_FILE, REGION + CheckpointInstaller.MARKER_SUFFIX);
  private static final Set<String> REGION_COPIES = Set.of(REGION, REGION + ".create",
      REGION + CheckpointInstaller.OLD_SUFFIX, REGION + CheckpointInstaller.NEW_SUFFIX);
  private static final Pattern SERVED_CHECKPOINT = Pattern.compile("\\d+-\\d+-\\d+");

  private ReplicaFiles() {}

  /** Deletes what Bellows made in {@code dir} and, if nothing else is left, {@code dir}; returns what it left. */
  static List<Path> delete(Path dir) throws IOException {
    List<Path> left = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return left;
    }
    for (Path p : list(dir)) {
      String name = p.getFileName().toString();
      if (Files.isRegularFile(p) && TOP_FILES.contains(base(name))) {
        Files.delete(p);
      } else if (Files.isDirectory(p) && REGION_COPIES.contains(name)) {
        deleteRegionCopy(p, left);
      } else if (Files.isDirectory(p) && name.equals(REGION + CheckpointInstaller.STAGING_SUFFIX)) {
        deleteCheckpoint(p, Set.of(CheckpointManifest.FILE_NAME, CheckpointFetcher.FETCHING), left);
      } else if (Files.isDirectory(p) && name.equals(CHECKPOINTS)) {
        for (Path c : list(p)) {
          if (Files.isDirectory(c) && SERVED_CHECKPOINT.matcher(c.getFileName().toString()).matches()) {
            deleteCheckpoint(c, Set.of(CheckpointManifest.FILE_NAME), left);
          } else {
            left.add(c);
          }
        }
        deleteIfEmpty(p);
      } else {
        left.add(p);
      }
    }
    deleteIfEmpty(dir);
    return left;
  }

  /** A checkpoint's directory: its descriptor files and its copy of the region. */
  private static void deleteCheckpoint(Path dir, Set<String> files, List<Path> left) throws IOException {
    for (Path p : list(dir)) {
      String name = p.getFileName().toString();
      if (Files.isRegularFile(p) && files.contains(base(name))) {
        Files.delete(p);
      } else if (Files.isDirectory(p) && name.equals(REGION)) {
        deleteRegionCopy(p, left);
      } else {
        left.add(p);
      }
    }
    deleteIfEmpty(dir);
  }

  /** Deletes a region or a copy of one as {@link #delete} does; returns what it left. */
  static List<Path> deleteRegionCopy(Path region) throws IOException {
    List<Path> left = new ArrayList<>();
    if (Files.isDirectory(region)) {
      deleteRegionCopy(region, left);
    }
    return left;
  }

  /** A region or a copy of one: per family directory its store files; at the top the answered calls. */
  private static void deleteRegionCopy(Path region, List<Path> left) throws IOException {
    for (Path p : list(region)) {
      String name = p.getFileName().toString();
      if (Files.isDirectory(p)) {
        for (Path f : list(p)) {
          if (Files.isRegularFile(f) && StoreManifest.isStoreFileName(base(f.getFileName().toString()))) {
            Files.delete(f);
          } else {
            left.add(f);
          }
        }
        deleteIfEmpty(p);
      } else if (Files.isRegularFile(p) && base(name).equals(RegionApplier.ANSWERED_CALLS_FILE)) {
        Files.delete(p);
      } else {
        left.add(p);
      }
    }
    deleteIfEmpty(region);
  }

  /** A name without the suffixes of a file being written ({@code .tmp}) or fetched ({@code .part}). */
  private static String base(String name) {
    for (String suffix : new String[] {CheckpointFetcher.PART, ".tmp"}) {
      if (name.endsWith(suffix)) {
        name = name.substring(0, name.length() - suffix.length());
      }
    }
    return name;
  }

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
