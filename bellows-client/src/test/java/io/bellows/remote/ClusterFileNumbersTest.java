package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.manifest.StoreManifest;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.TableNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every replica on a member shares the member's block cache and KV cache, keyed by sorted-file
 * number and offset: two tables' replicas on one member never give two files the same number, and
 * each table reads its own cells with the caches warm (three server processes).
 */
class ClusterFileNumbersTest {
  private static final List<String> TABLES = List.of("a", "b");
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  @Test
  void twoTablesOnOneMemberNeverShareAFileNumberAndEachReadsItsOwnCells() throws Exception {
    LocalCluster cluster = LocalCluster.start(dir, 3, false);
    RemoteOptions options = RemoteOptions.defaults().withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500));
    try (Bellows db = RemoteEngine.connect(cluster.addresses(), options)) {
      for (String name : TABLES) {
        db.createTable(TableDescriptor.builder(name).family("f").build());
        // The same row in both: before one allocator per member, both first files held it at the same offsets.
        db.getTable(name).put(new Put(Bytes.of("row")).addColumn(F, Q, Bytes.of("value of " + name)));
      }
      for (ClusterMember m : cluster.members) {
        Path regions = dir.resolve(m.id).resolve("data").resolve("regions");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (Bellows one = RemoteEngine.connect(m.clientAddress, options)) {
          // A follower may not have applied the puts (or the tables' creation) when its flush comes: flush
          // again until both replicas hold a file.
          while (filesByReplica(regions).values().stream().filter(s -> !s.isEmpty()).count() < TABLES.size()) {
            assertThat(System.nanoTime()).as("member %s flushed both tables", m.id).isLessThan(deadline);
            for (String name : TABLES) {
              try {
                one.flush(name);
              } catch (TableNotFoundException e) {
                // this member's meta has not applied the table's creation yet
              }
            }
          }
        }
        Set<Long> seen = new HashSet<>();
        for (Map.Entry<String, Set<Long>> e : filesByReplica(regions).entrySet()) {
          for (long file : e.getValue()) {
            assertThat(seen.add(file)).as("member %s: file number %d of replica %s is another replica's too", m.id,
                file, e.getKey()).isTrue();
          }
        }
      }
      for (int round = 0; round < 2; round++) { // the second round reads with the blocks cached
        for (String name : TABLES) {
          assertThat(Bytes.str(db.getTable(name).get(new Get(Bytes.of("row"))).getValue(F, Q)))
              .as("round %d, table %s", round, name).isEqualTo("value of " + name);
        }
      }
    } finally {
      cluster.close();
    }
  }

  /** Each replica's sorted-file numbers, by its group directory ({@code regions/GROUP/region/FAMILY/}). */
  private static Map<String, Set<Long>> filesByReplica(Path regions) throws IOException {
    Map<String, Set<Long>> out = new TreeMap<>();
    if (!Files.isDirectory(regions)) {
      return out;
    }
    try (Stream<Path> groups = Files.list(regions)) {
      for (Path g : groups.toList()) {
        Set<Long> files = new HashSet<>();
        Path region = g.resolve("region");
        if (Files.isDirectory(region)) {
          try (Stream<Path> families = Files.list(region)) {
            for (Path f : families.filter(Files::isDirectory).toList()) {
              try (Stream<Path> names = Files.list(f)) {
                names.map(p -> StoreManifest.parseFileId(p.getFileName().toString())).filter(id -> id >= 0)
                    .forEach(files::add);
              }
            }
          }
        }
        out.put(g.getFileName().toString(), files);
      }
    }
    return out;
  }
}
