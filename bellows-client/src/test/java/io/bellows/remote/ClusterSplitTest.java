package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.cluster.server.ReplicatedEngine;
import io.bellows.config.EngineOptions;
import io.bellows.engine.RegionInfo;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Splitting a region of a cluster's table online (three members in this JVM, a client going
 * through {@link RemoteCluster}): meta lists the two daughters, every member builds them from the
 * parent's files and serves every row the parent held, a writer running through the split loses no
 * acknowledged row, an increment whose answer names its call is applied once across the split, the
 * parent's replicas and Raft logs are removed from every member once each holds the split, and a
 * member stopped and started again (or the whole cluster) opens the daughters from its directory;
 * a region that reaches its table's MAX_FILESIZE is split by its leader.
 */
class ClusterSplitTest {
  private static final byte[] F = Bytes.of("f");
  private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(60);
  private static final RemoteOptions OPTIONS = RemoteOptions.defaults().withDataDeadline(Duration.ofSeconds(30))
      .withRetries(5, Duration.ofMillis(20), Duration.ofMillis(300));

  @TempDir
  Path dir;

  @Test
  void aRegionSplitsOnlineOnEveryMemberAndKeepsEveryAcknowledgedRow() throws Exception {
    try (InJvmCluster cluster = new InJvmCluster(dir);
        Bellows db = Bellows.over(RemoteCluster.open(cluster.addresses(), OPTIONS))) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = db.getTable("t");
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 2000; i++) {
        puts.add(put(row(i), "v" + i));
        if (puts.size() == 200) {
          t.put(puts);
          puts = new ArrayList<>();
        }
      }
      t.incrementColumnValue(Bytes.of("r0500"), F, Bytes.of("n"), 5);
      UUID parent = cluster.member("m1").engine().group("t");

      // A writer goes on through the split; what it was told is written must be there after.
      Set<String> acknowledged = ConcurrentHashMap.newKeySet();
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> failed = new AtomicReference<>();
      java.util.concurrent.atomic.AtomicLong longestPut = new java.util.concurrent.atomic.AtomicLong();
      Thread writer = new Thread(() -> {
        for (int i = 0; !stop.get(); i++) {
          String r = "w" + (i % 2 == 0 ? "a" : "z") + String.format("%05d", i); // both sides of the split key
          try {
            long start = System.nanoTime();
            t.put(put(r, r));
            longestPut.accumulateAndGet(System.nanoTime() - start, Math::max);
            acknowledged.add(r);
          } catch (RuntimeException e) {
            failed.compareAndSet(null, e);
            return;
          }
        }
      }, "split-test-writer");
      writer.start();
      while (acknowledged.size() < 50 && failed.get() == null) {
        Thread.onSpinWait();
      }

      long splitStart = System.nanoTime();
      db.split("t", Bytes.of("r1000"));
      long splitMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - splitStart);

      List<RegionInfo> regions = db.regions("t");
      assertThat(regions).hasSize(2);
      assertThat(regions.get(0).endKey()).isEqualTo(Bytes.of("r1000"));
      assertThat(regions.get(1).startKey()).isEqualTo(Bytes.of("r1000"));
      while (acknowledged.size() < 200 && failed.get() == null) {
        Thread.onSpinWait(); // the writer goes on after the split, into both daughters
      }
      stop.set(true);
      writer.join();
      assertThat(failed.get()).as("the writer's calls across the split").isNull();
      // What the split cost (the targets in BENCHMARKS.md; not asserted: timings are not unit-test matters).
      System.out.println("ClusterSplitTest: the split call returned (both daughters led) after " + splitMillis
          + " ms; the writer's longest put " + TimeUnit.NANOSECONDS.toMillis(longestPut.get()) + " ms over "
          + acknowledged.size() + " puts");

      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 2000; i++) {
        expected.add(row(i));
      }
      expected.addAll(acknowledged);
      expected.sort(null);
      assertThat(scanRows(t, false)).containsExactlyElementsOf(expected);
      List<String> backwards = new ArrayList<>(expected);
      java.util.Collections.reverse(backwards);
      assertThat(scanRows(t, true)).containsExactlyElementsOf(backwards);
      assertThat(value(t.get(new Get(Bytes.of("r0999"))))).isEqualTo("v999");
      assertThat(value(t.get(new Get(Bytes.of("r1000"))))).isEqualTo("v1000");
      assertThat(t.incrementColumnValue(Bytes.of("r0500"), F, Bytes.of("n"), 1)).isEqualTo(6);
      assertThat(t.incrementColumnValue(Bytes.of("r1500"), F, Bytes.of("n"), 1)).isEqualTo(1);

      // Every member: the daughters' groups, the parent's replica and log removed once all hold the split.
      List<UUID> daughters = cluster.member("m1").engine().groups("t");
      assertThat(daughters).hasSize(2).doesNotContain(parent);
      for (InJvmCluster.Member m : cluster.live()) {
        assertThat(m.engine().groups("t")).as(m.id()).isEqualTo(daughters);
        awaitGone(m, dir.resolve(m.id()), parent);
        for (UUID d : daughters) {
          assertThat(m.engine().node().holds(d)).as(m.id() + " holds daughter " + d).isTrue();
        }
      }

      // A split key at a region's start, or an empty one, is refused with nothing changed.
      assertThatThrownBy(() -> db.split("t", Bytes.of("r1000"))).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("strictly inside");
      assertThat(db.regions("t")).hasSize(2);

      // A member stopped and started again opens the daughters from its directory; then the whole cluster.
      cluster.stop("m3");
      t.put(put("r1999x", "after"));
      ReplicatedEngine m3 = cluster.start("m3", EngineOptions.defaults()).engine();
      for (UUID d : daughters) {
        assertThat(m3.node().holds(d)).as("m3 holds daughter " + d).isTrue();
      }
      assertThat(m3.node().holds(parent)).isFalse();
      for (String id : cluster.ids()) {
        cluster.stop(id);
      }
      for (String id : cluster.ids()) {
        cluster.start(id, EngineOptions.defaults());
      }
      expected.add("r1999x");
      expected.sort(null);
      assertThat(scanRows(t, false)).containsExactlyElementsOf(expected);
      assertThat(t.incrementColumnValue(Bytes.of("r0500"), F, Bytes.of("n"), 1)).isEqualTo(7);
    }
  }

  /**
   * A client that learnt the table's regions before a split (no call of its own met the split
   * since) sends gets of rows in both daughters as one call, to one member: when each daughter has
   * another leader, neither answers the whole call. The member must say the regions changed, so
   * the client asks for them again and sends each daughter its gets; a plain NOT_LEADER per
   * daughter sent the call from one leader to the other until its deadline (found by the split's
   * crash test: a client's regions came from a member whose catalog lagged the split).
   */
  @Test
  void aClientWhoseRegionsPredateASplitGetsRowsOfBothDaughtersInOneCall() throws Exception {
    RemoteOptions shortDeadline = OPTIONS.withDataDeadline(Duration.ofSeconds(10));
    try (InJvmCluster cluster = new InJvmCluster(dir);
        Bellows admin = Bellows.over(RemoteCluster.open(cluster.addresses(), OPTIONS));
        Bellows stale = Bellows.over(RemoteCluster.open(cluster.addresses(), shortDeadline))) {
      admin.createTable(TableDescriptor.builder("t").family("f").build());
      Table t = admin.getTable("t");
      t.put(List.of(put("r0500", "low"), put("r1500", "high")));
      Table s = stale.getTable("t");
      assertThat(value(s.get(new Get(Bytes.of("r0500"))))).as("the stale client learns one region").isEqualTo("low");

      admin.split("t", Bytes.of("r1000"));
      String low = admin.moveLeader("t", Bytes.of("r0500"), "m1").to();
      String high = admin.moveLeader("t", Bytes.of("r1500"), "m2").to();
      assertThat(low).isNotEqualTo(high);

      List<Result> both = s.get(List.of(new Get(Bytes.of("r0500")), new Get(Bytes.of("r1500"))));
      assertThat(both).extracting(ClusterSplitTest::value).containsExactly("low", "high");
    }
  }

  /**
   * MAX_FILESIZE in a cluster: a region whose largest store's files reach it is split by its leader
   * after a flush, as one server's are, and every row written is read back over the daughters.
   */
  @Test
  void aRegionSplitsByItselfAtMaxFileSize() throws Exception {
    try (InJvmCluster cluster = new InJvmCluster(dir);
        Bellows db = Bellows.over(RemoteCluster.open(cluster.addresses(), OPTIONS))) {
      TableDescriptor.Builder b = TableDescriptor.builder("a");
      b.set("MAX_FILESIZE", Long.toString(64 * 1024));
      b.flushSize(64 * 1024);
      // Uncompressed: these rows' values compress so well that the files would not reach the size.
      b.family(io.bellows.schema.ColumnFamilyDescriptor.builder("f").blockSize(1024)
          .compression(io.bellows.config.Compression.NONE).build());
      db.createTable(b.build());
      Table t = db.getTable("a");
      List<String> written = new ArrayList<>();
      long end = System.nanoTime() + WAIT_NANOS;
      for (int i = 0; db.regions("a").size() < 2; i += 100) {
        if (System.nanoTime() - end > 0 || i > 200_000) {
          throw new AssertionError("no split after " + i + " rows");
        }
        List<Put> puts = new ArrayList<>();
        for (int k = i; k < i + 100; k++) {
          String r = String.format("a%07d", k);
          puts.add(put(r, "value of row " + r + " padded to take room in its block".repeat(3)));
          written.add(r);
        }
        t.put(puts);
      }
      assertThat(scanRows(t, false)).isEqualTo(written);
    }
  }

  private static void awaitGone(InJvmCluster.Member m, Path data, UUID parent) throws InterruptedException {
    long end = System.nanoTime() + WAIT_NANOS;
    Path replica = data.resolve("regions").resolve(parent.toString());
    while (m.engine().node().holds(parent) || Files.exists(replica)) {
      if (System.nanoTime() - end > 0) {
        throw new AssertionError(m.id() + " still holds the split parent " + parent + " after 60 s");
      }
      Thread.sleep(20); // polling the member's state: the retire entry follows the split within a pass
    }
  }

  private static String row(int i) {
    return String.format("r%04d", i);
  }

  private static Put put(String row, String value) {
    return new Put(Bytes.of(row)).addColumn(F, F, value.getBytes(StandardCharsets.UTF_8));
  }

  private static String value(Result r) {
    return new String(r.getValue(F, F), StandardCharsets.UTF_8);
  }

  private static List<String> scanRows(Table t, boolean reversed) {
    List<String> out = new ArrayList<>();
    Scan scan = new Scan();
    if (reversed) {
      scan.setReversed(true);
    }
    try (ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        out.add(new String(r.row(), StandardCharsets.UTF_8));
      }
    }
    return out;
  }
}
