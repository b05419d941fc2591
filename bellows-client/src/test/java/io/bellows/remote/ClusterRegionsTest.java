package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.engine.ClusterStatus;
import io.bellows.engine.RegionInfo;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import io.bellows.util.StorageException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table of three regions on three {@code bellows server --cluster} processes: created with split
 * keys through {@link RemoteCluster}, each region its own Raft group with a replica on every member;
 * seeded rows written across all regions (single puts, batches spanning regions, an increment and a
 * check-and-put in each region) are read back by gets, a multi-get and scans in order, forward and
 * reversed, across region boundaries and with limits. Then the member leading the most regions is
 * SIGKILLed while a writer goes on, and every acknowledged row must still be read back, in order
 * both ways, from the two members left. Prints its seed (rows and values replay; timing does not).
 * Server processes: one such test at a time.
 */
@ExtendWith(SeedExtension.class)
class ClusterRegionsTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");
  private static final byte[] N = Bytes.of("n");
  private static final List<byte[]> SPLITS = List.of(Bytes.of("h"), Bytes.of("q"));

  @TempDir
  Path dir;

  @Test
  void aTableOfThreeRegionsServesRowsAcrossThemAndKeepsThemThroughAKilledMember(Seed seed) throws Exception {
    Random rnd = seed.random();
    RemoteOptions options = RemoteOptions.defaults().withRetries(5, Duration.ofMillis(50), Duration.ofMillis(500));
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (LocalCluster cluster = LocalCluster.start(dir, 3, false);
        RemoteCluster engine = RemoteCluster.open(cluster.addresses(), options);
        Bellows db = Bellows.over(engine)) {
      db.createTable(TableDescriptor.builder("t").family("f").build(), SPLITS);
      List<RegionInfo> regions = db.regions("t");
      assertThat(regions).extracting(r -> Bytes.str(r.startKey()) + "-" + Bytes.str(r.endKey()))
          .containsExactly("-h", "h-q", "q-");
      assertThat(regions.stream().map(RegionInfo::identity).distinct()).as("a Raft group per region").hasSize(3);
      Table t = db.getTable("t");

      // Rows across every region: single puts, then one batch that spans all three.
      Map<String, String> acked = new ConcurrentHashMap<>();
      for (int i = 0; i < 30; i++) {
        String row = row(rnd, i);
        String value = "v" + rnd.nextInt(1000);
        t.put(new Put(Bytes.of(row)).addColumn(F, Q, Bytes.of(value)));
        acked.put(row, value);
      }
      List<Put> batch = new ArrayList<>();
      for (int i = 30; i < 60; i++) {
        String row = row(rnd, i);
        String value = "b" + rnd.nextInt(1000);
        batch.add(new Put(Bytes.of(row)).addColumn(F, Q, Bytes.of(value)));
        acked.put(row, value);
      }
      t.put(batch);
      // An increment and a check-and-put in each region, routed by their rows.
      for (String row : List.of("a-counter", "m-counter", "x-counter")) {
        assertThat(t.incrementColumnValue(Bytes.of(row), F, N, 5)).isEqualTo(5);
        assertThat(t.incrementColumnValue(Bytes.of(row), F, N, 2)).isEqualTo(7);
        assertThat(t.checkAndPut(Bytes.of(row), F, N, Bytes.toBytes(7L), new Put(Bytes.of(row)).addColumn(F, Q,
            Bytes.of("checked")))).as("check-and-put on %s", row).isTrue();
        acked.put(row, "checked");
      }

      assertAllRead(t, acked, Map.of());
      List<String> sorted = new ArrayList<>(new TreeMap<>(acked).keySet());
      // A scan from one region into the next, and limits that end in the middle region.
      assertThat(rows(t, new Scan().withStartRow(Bytes.of("f")).withStopRow(Bytes.of("s"))))
          .isEqualTo(sorted.stream().filter(r -> r.compareTo("f") >= 0 && r.compareTo("s") < 0).toList());
      assertThat(rows(t, new Scan().withStartRow(Bytes.of("c")).setLimit(12)))
          .isEqualTo(sorted.stream().filter(r -> r.compareTo("c") >= 0).limit(12).toList());
      List<String> down = new ArrayList<>(sorted);
      Collections.reverse(down);
      assertThat(rows(t, new Scan().setReversed(true).withStartRow(Bytes.of("r")).withStopRow(Bytes.of("d")).setLimit(15)))
          .isEqualTo(down.stream().filter(r -> r.compareTo("r") <= 0 && r.compareTo("d") > 0).limit(15).toList());

      // Every region has a leader and a replica on every member.
      ClusterStatus status = engine.clusterStatus().orElseThrow();
      Map<Integer, Long> replicasPerRegion = status.replicasOf("t").stream()
          .collect(Collectors.groupingBy(ClusterStatus.Replica::regionId, Collectors.counting()));
      assertThat(replicasPerRegion).hasSize(3).allSatisfy((region, n) -> assertThat(n).isEqualTo(3));
      String victim = mostLeading(engine, regions);
      System.out.println("ClusterRegionsTest " + seed + ": killing " + victim + ", which leads the most regions");

      // A writer goes on while the member is killed; its acknowledged rows must survive too.
      Map<String, String> maybe = new ConcurrentHashMap<>(); // written, not acknowledged: may or may not be there
      AtomicBoolean stop = new AtomicBoolean();
      AtomicInteger afterKill = new AtomicInteger();
      AtomicBoolean killed = new AtomicBoolean();
      Random writes = seed.random(1);
      Future<?> writer = pool.submit(() -> {
        for (int i = 1000; !stop.get(); i++) {
          String row = row(writes, i);
          String value = "w" + i;
          try {
            t.put(new Put(Bytes.of(row)).addColumn(F, Q, Bytes.of(value)));
            acked.put(row, value);
            if (killed.get()) {
              synchronized (afterKill) {
                afterKill.incrementAndGet();
                afterKill.notifyAll();
              }
            }
          } catch (StorageException e) {
            maybe.put(row, value);
          }
        }
        return null;
      });
      synchronized (afterKill) { // some rows written before the kill
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (acked.size() < 100 && !writer.isDone() && end - System.nanoTime() > 0) {
          afterKill.wait(100);
        }
      }
      cluster.member(victim).kill();
      killed.set(true);
      synchronized (afterKill) { // and some acknowledged by the two left, every region's leader among them
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (afterKill.get() < 30 && !writer.isDone() && end - System.nanoTime() > 0) {
          afterKill.wait(TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()) + 1);
        }
      }
      stop.set(true);
      writer.get(60, TimeUnit.SECONDS);
      assertThat(afterKill.get()).as("rows acknowledged after the kill").isGreaterThanOrEqualTo(30);
      assertThat(new TreeMap<>(acked).keySet()).as("rows in every region").anyMatch(r -> r.compareTo("h") < 0)
          .anyMatch(r -> r.compareTo("h") >= 0 && r.compareTo("q") < 0).anyMatch(r -> r.compareTo("q") >= 0);
      assertAllRead(t, acked, maybe);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Every acknowledged row by a get, a multi-get, and scans forward and reversed (in order; no row but those written). */
  static void assertAllRead(Table t, Map<String, String> acked, Map<String, String> maybe) {
    TreeMap<String, String> expected = new TreeMap<>(acked);
    for (Map.Entry<String, String> e : expected.entrySet()) {
      Result r = t.get(new Get(Bytes.of(e.getKey())));
      assertThat(Bytes.str(r.getValue(F, Q))).as("get %s", e.getKey()).isEqualTo(e.getValue());
    }
    List<String> keys = new ArrayList<>(expected.keySet());
    List<Get> gets = keys.stream().map(k -> new Get(Bytes.of(k))).toList();
    List<Result> many = t.get(gets);
    for (int i = 0; i < keys.size(); i++) {
      assertThat(Bytes.str(many.get(i).getValue(F, Q))).as("multi-get %s", keys.get(i)).isEqualTo(expected.get(keys.get(i)));
    }
    List<String> forward = rows(t, new Scan());
    assertThat(forward).as("a scan in key order").isSorted().doesNotHaveDuplicates().containsAll(keys);
    assertThat(forward).as("no row that was never written").allMatch(r -> acked.containsKey(r) || maybe.containsKey(r));
    List<String> reversed = rows(t, new Scan().setReversed(true));
    Collections.reverse(reversed);
    assertThat(reversed).as("a reversed scan, turned round").isEqualTo(forward);
  }

  private static List<String> rows(Table t, Scan scan) {
    List<String> out = new ArrayList<>();
    try (ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        out.add(Bytes.str(r.row()));
      }
    }
    return out;
  }

  /** A row in any of the regions: a letter a..z first. */
  private static String row(Random rnd, int i) {
    return (char) ('a' + rnd.nextInt(26)) + String.format("%05d", i);
  }

  /** The member that leads the most of the table's regions, as the members report it. */
  private static String mostLeading(RemoteCluster engine, List<RegionInfo> regions) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      ClusterStatus status = engine.clusterStatus().orElseThrow();
      Map<String, Long> led = new TreeMap<>();
      for (RegionInfo r : regions) {
        status.leaderOf("t", r.id()).ifPresent(l -> led.merge(l.member(), 1L, Long::sum));
      }
      if (led.values().stream().mapToLong(Long::longValue).sum() == regions.size() || System.nanoTime() > end) {
        return led.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse("n1");
      }
      Thread.sleep(50); // between polls of the members, not a wait for anything in particular
    }
  }
}
