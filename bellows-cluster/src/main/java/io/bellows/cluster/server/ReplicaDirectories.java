package io.bellows.cluster.server;

import io.bellows.fs.AtomicFiles;
import io.bellows.fs.LocalFileSystem;
import io.bellows.manifest.StoreManifest;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The member's replicas on disk, {@code regions/GROUP/} under its data directory: each replica's
 * {@code region.txt} (what it is, so that it opens at a restart before meta replays) and the
 * making of a new replica's empty stores, and the groups of dropped tables ({@code regions/dropped}),
 * whose directories are deleted. What lies inside {@code region/} is the region's.
 */
final class ReplicaDirectories {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaDirectories.class);
  static final String REGION_FILE = "region.txt";
  /** The groups whose replicas were dropped here, one id a line: never opened or joined again. */
  private static final String DROPPED_FILE = "dropped";

  /** What {@code region.txt} records of a replica: its table, region, sequence base and range. */
  record Recorded(int tableId, int regionId, long base, byte[] start, byte[] end, TableDescriptor descriptor) {}

  private final Path regions;

  ReplicaDirectories(Path data) {
    this.regions = data.resolve("regions");
  }

  /** Makes {@code regions/} the first time. */
  void create() throws IOException {
    Files.createDirectories(regions);
  }

  /** The directory of the replica of {@code group}. */
  Path of(UUID group) {
    return regions.resolve(group.toString());
  }

  /** Records the replica of {@code region} of table {@code tableId} (atomically: a crash leaves the old file or the new). */
  void record(int tableId, MetaCatalog.RegionEntry region, TableDescriptor d) {
    Path dir = of(region.group());
    try {
      AtomicFiles.createDirectories(LocalFileSystem.INSTANCE, dir);
      AtomicFiles.write(LocalFileSystem.INSTANCE, dir.resolve(REGION_FILE),
          regionText(tableId, region, d).getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot record the replica of table '" + d.name() + "'", e);
    }
  }

  /** What {@code region.txt} says of the replica of {@code group}, which the node holds. */
  Recorded read(UUID group) {
    Path file = of(group).resolve(REGION_FILE);
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("the node holds group " + group + " but " + file + " cannot be read", e);
    }
    int nl = text.indexOf('\n');
    String[] head = text.substring(0, nl).split("\t", -1);
    int tableId = Integer.parseInt(head[0]);
    TableDescriptor d = TableText.decode(text.substring(nl + 1));
    if (head.length == 2) { // written before tables had several regions: the table's one region, its id the table's
      return new Recorded(tableId, tableId, Long.parseLong(head[1]), new byte[0], new byte[0], d);
    }
    return new Recorded(tableId, Integer.parseInt(head[2]), Long.parseLong(head[1]), MetaCatalog.unhex(head[3]),
        MetaCatalog.unhex(head[4]), d);
  }

  /** {@code region.txt}: {@code TABLE-ID TAB BASE TAB REGION-ID TAB START-HEX TAB END-HEX LF}, then the table's text. */
  static String regionText(int tableId, MetaCatalog.RegionEntry region, TableDescriptor d) {
    return tableId + "\t" + region.base() + "\t" + region.id() + "\t" + MetaCatalog.hex(region.start()) + "\t"
        + MetaCatalog.hex(region.end()) + "\n" + TableText.encode(d);
  }

  /**
   * Makes a new replica's empty stores where a crash leaves no half of them: under {@code
   * region.create/} (a leftover of a crash replaced), renamed to {@code region/} once every store
   * is there. A replica's {@code region/} is so always whole, and one that is missing is created
   * again when meta's entry is applied again.
   */
  void createStores(UUID group, TableDescriptor d) {
    Path dir = of(group);
    Path staging = dir.resolve(ReplicaFiles.REGION + ".create");
    try {
      List<Path> left = ReplicaFiles.deleteRegionCopy(staging);
      if (!left.isEmpty()) {
        throw new IOException("a leftover " + staging + " holds files Bellows did not make: " + left);
      }
      for (ColumnFamilyDescriptor f : d.families()) {
        Store.initialize(LocalFileSystem.INSTANCE, staging.resolve(f.name()));
      }
      AtomicFiles.createDirectories(LocalFileSystem.INSTANCE, staging); // a table without families has no store
      AtomicFiles.moveAtomically(LocalFileSystem.INSTANCE, staging, dir.resolve(ReplicaFiles.REGION));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the stores of a replica in " + dir, e);
    }
  }

  /**
   * The groups of the replicas dropped here ({@code regions/dropped}): at a restart, Ratis may find
   * such a group's log again (the member died before removing it), and meta's replay creates its
   * table again before it drops it; neither may open or serve the replica.
   */
  Set<UUID> dropped() {
    Path file = regions.resolve(DROPPED_FILE);
    Set<UUID> out = new LinkedHashSet<>();
    try {
      if (Files.exists(file)) {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          if (!line.isEmpty()) {
            out.add(UUID.fromString(line));
          }
        }
      }
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalStateException("cannot read the dropped replicas in " + file, e);
    }
    return out;
  }

  /**
   * Records {@code groups} as dropped, with the others already recorded (atomically: a crash leaves
   * the old list or the new). The decision of a drop on this member: what follows it (the group
   * left, the directory deleted) is finished at a restart if a crash cuts it short.
   */
  void recordDropped(Set<UUID> groups) {
    StringBuilder text = new StringBuilder();
    for (UUID g : groups) {
      text.append(g).append('\n');
    }
    try {
      AtomicFiles.write(LocalFileSystem.INSTANCE, regions.resolve(DROPPED_FILE),
          text.toString().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot record the dropped replicas in " + regions, e);
    }
  }

  /**
   * Deletes the directory of the dropped replica of {@code group} ({@code regions/GROUP/}), if it
   * is there: the files Bellows made in it first ({@link ReplicaFiles}), the directory last, so a
   * crash leaves a directory that the next call deletes. What someone else put there stays, with
   * the directories holding it, and is logged.
   */
  void delete(UUID group) {
    Path dir = of(group);
    try {
      List<Path> left = ReplicaFiles.delete(dir);
      if (!left.isEmpty()) {
        LOG.warn("left {} in the dropped replica {}: not made by Bellows", left, dir);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the dropped replica in " + dir, e);
    }
  }

  /** The highest sorted-file number of any replica's region ({@code regions/GROUP/region/FAMILY/}); 0 if none. */
  long highestFileNumber() {
    long max = 0;
    try (Stream<Path> groups = Files.list(regions)) {
      for (Path g : (Iterable<Path>) groups::iterator) {
        Path region = g.resolve(ReplicaFiles.REGION);
        if (!Files.isDirectory(region)) {
          continue;
        }
        try (Stream<Path> families = Files.list(region)) {
          for (Path f : (Iterable<Path>) families::iterator) {
            if (!Files.isDirectory(f)) {
              continue;
            }
            try (Stream<Path> files = Files.list(f)) {
              for (Path file : (Iterable<Path>) files::iterator) {
                max = Math.max(max, StoreManifest.parseFileId(file.getFileName().toString()));
              }
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the replicas' files under " + regions, e);
    }
    return max;
  }
}
