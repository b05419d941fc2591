package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.fs.LocalFileSystem;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.store.Store;
import io.bellows.util.Bytes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The creation of a table of several regions is all or nothing on a member that died while opening
 * them: three members in this JVM; one is stopped, the table (three regions) is created and
 * written through the other two, and the stopped member's directory is left as if it had died
 * while applying meta's entry: the first region's record and stores made, the second's record and
 * half its stores (a leftover of their staging), the third's nothing. Restarted, it replays meta's
 * entry and ends with a replica of every region, each in its group and holding every row.
 */
class ClusterRegionsCreationTest {
  private static final byte[] F = Bytes.of("f");

  @TempDir
  Path dir;

  @Test
  void aMemberThatDiedWhileOpeningATablesRegionsEndsWithAllOfThem() throws Exception {
    try (InJvmCluster cluster = new InJvmCluster(dir)) {
      ReplicatedEngine first = cluster.member("m3").engine();
      first.node().awaitLeader(ReplicatedEngine.META, InJvmCluster.WAIT_MS); // it holds meta's configuration
      first.node().log(ReplicatedEngine.META).read(new byte[0]).join();
      cluster.stop("m3");
      RemoteOptions options = RemoteOptions.defaults().withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500));
      try (Bellows db = Bellows.over(RemoteCluster.open(cluster.addresses(), options))) {
        db.createTable(TableDescriptor.builder("t").family("f").build(), List.of(Bytes.of("h"), Bytes.of("q")));
        Table t = db.getTable("t");
        for (String row : List.of("a1", "m1", "z1")) {
          t.put(new Put(Bytes.of(row)).addColumn(F, F, Bytes.of(row)));
        }
        List<UUID> groups = cluster.member("m1").engine().groups("t");
        assertThat(groups).hasSize(3);
        Path from = dir.resolve("m1").resolve("regions");
        Path to = dir.resolve("m3").resolve("regions");
        // Region 1: recorded and its stores made; region 2: recorded, its stores half staged; region 3: nothing.
        Files.createDirectories(to.resolve(groups.get(0).toString()));
        Files.copy(from.resolve(groups.get(0).toString()).resolve("region.txt"),
            to.resolve(groups.get(0).toString()).resolve("region.txt"));
        Store.initialize(LocalFileSystem.INSTANCE, to.resolve(groups.get(0).toString()).resolve("region").resolve("f"));
        Files.createDirectories(to.resolve(groups.get(1).toString()).resolve("region.create").resolve("f"));
        Files.copy(from.resolve(groups.get(1).toString()).resolve("region.txt"),
            to.resolve(groups.get(1).toString()).resolve("region.txt"));

        ReplicatedEngine m3 = cluster.start("m3", io.bellows.config.EngineOptions.defaults()).engine();
        for (String row : List.of("b2", "n2", "y2")) { // entries the restarted member's groups take from their leaders
          t.put(new Put(Bytes.of(row)).addColumn(F, F, Bytes.of(row)));
        }
        m3.node().awaitLeader(ReplicatedEngine.META, InJvmCluster.WAIT_MS);
        m3.node().log(ReplicatedEngine.META).read(new byte[0]).join(); // it has applied meta's entry
        assertThat(m3.groups("t")).isEqualTo(groups);
        for (UUID g : groups) {
          m3.node().awaitLeader(g, InJvmCluster.WAIT_MS);
          m3.node().log(g).read(new byte[0]).join(); // it has applied everything committed in each region
        }
        assertThat(Files.exists(to.resolve(groups.get(1).toString()).resolve("region.create")))
            .as("the half staging replaced").isFalse();
        List<String> rows = new ArrayList<>();
        try (RowScanner s = m3.scanStale(m3.table("t"), ScanQuery.builder().build())) {
          List<Cell> row = new ArrayList<>();
          while (s.nextRow(row)) {
            rows.add(Bytes.str(row.get(0).row()));
            row.clear();
          }
        }
        assertThat(rows).containsExactly("a1", "b2", "m1", "n2", "y2", "z1");
      }
    }
  }
}
