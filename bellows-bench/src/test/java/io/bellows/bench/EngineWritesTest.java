package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.config.MemStorePolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the engine benchmark's logic on a tiny workload so that it keeps working. */
class EngineWritesTest {
  private static final long SEED = 7;

  @TempDir
  Path dir;

  private EngineWrites.Plan plan(String keys, String policies, String... more) {
    System.out.println("seed " + SEED);
    List<String> args = new java.util.ArrayList<>(List.of(
        "--rows", "4000", "--flush-mib", "0.0625", "--key-space", "500", "--gets", "400", "--rounds", "1",
        "--warmup", "0", "--keys", keys, "--policies", policies, "--seed", String.valueOf(SEED),
        "--dir", dir.toString()));
    args.addAll(List.of(more));
    return EngineWrites.Plan.parse(args.toArray(new String[0]));
  }

  @Test
  void everyRunWritesAllRowsFlushesThemAndReadsThemBack() throws IOException {
    EngineWrites.Plan small = plan("UNIQUE", "NONE,ADAPTIVE");
    assertThat(small.flushSize()).isEqualTo(64 * 1024);
    Map<String, List<EngineRunResult>> runs = EngineWrites.measure(small, KeyDistribution.UNIQUE, s -> { });

    assertThat(runs.keySet()).containsExactly("NONE", "ADAPTIVE");
    for (List<EngineRunResult> rs : runs.values()) {
      EngineRunResult r = rs.get(0);
      assertThat(r.putNanos().getTotalCount()).isEqualTo(4000);
      assertThat(r.getNanosEach().getTotalCount()).isEqualTo(400);
      assertThat(r.getMisses()).isZero();
      // 4000 unique rows of 304 bytes are ~18 flush sizes; all of it reaches disk.
      assertThat(r.flushes()).isGreaterThan(1);
      assertThat(r.flushBytes()).isPositive();
      assertThat(r.writeAmplification()).isGreaterThan(0.5);
      assertThat(r.walBytes()).isGreaterThanOrEqualTo(4000L * 4 * 25);
      assertThat(r.rowsPerSecond()).isPositive();
    }
    try (Stream<Path> left = Files.list(dir)) {
      assertThat(left).as("engine directories are deleted after each run").isEmpty();
    }

    String table = EngineReport.render(small.labels(), runs);
    assertThat(table).contains("| NONE |").contains("| ADAPTIVE |").contains("| 1.00 |");
  }

  @Test
  void zipfKeysAreReadBackAfterOverwrites() {
    EngineWrites.Plan small = plan("ZIPF", "EAGER");
    EngineRunResult r = EngineWrites.measure(small, KeyDistribution.ZIPF, s -> { }).get("EAGER").get(0);
    assertThat(r.getMisses()).isZero();
    // 4000 puts over 500 rows: in-memory compaction and flushes drop overwritten versions, so
    // less than the user data reaches the files.
    assertThat(r.flushBytes()).isLessThan(r.workload().userBytes());
  }

  @Test
  void preSplitTableSpreadsRowsOverItsRegionsAndTakesEngineSettings() {
    EngineWrites.Plan split = plan("UNIQUE", "BASIC", "--regions", "4", "--set", "bellows.compaction.threads=2");
    List<byte[]> keys = split.workload(KeyDistribution.UNIQUE).splitKeys();
    assertThat(keys).hasSize(3);
    for (int i = 1; i < keys.size(); i++) {
      assertThat(java.util.Arrays.compareUnsigned(keys.get(i - 1), keys.get(i))).as("split keys ascend").isNegative();
    }
    // Unique row ids are mixed over the whole id space: each quarter gets about a quarter of them.
    PaperRows rows = new PaperRows(0);
    UniqueKeys ids = new UniqueKeys(SEED);
    int[] perRegion = new int[4];
    for (int i = 0; i < 4000; i++) {
      byte[] key = rows.rowKey(ids.nextRowId());
      int region = 0;
      while (region < keys.size() && java.util.Arrays.compareUnsigned(key, keys.get(region)) >= 0) {
        region++;
      }
      perRegion[region]++;
    }
    assertThat(java.util.Arrays.stream(perRegion).boxed().toList()).allSatisfy(n -> assertThat(n).isBetween(800, 1200));
    EngineRunResult r = EngineWrites.measure(split, KeyDistribution.UNIQUE, s -> { }).get("BASIC").get(0);
    assertThat(r.getMisses()).isZero();
    assertThat(split.engineSettings()).containsEntry("bellows.compaction.threads", "2");
  }

  /** --set goes through the knob registry's parser: a wrong value or name fails before any run, naming the knob. */
  @Test
  void aWrongSetIsRefusedBeforeAnyRunNamingTheKnob() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> plan("UNIQUE", "BASIC", "--set", "bellows.compaction.threads=two"))
        .hasMessageContaining("--set bellows.compaction.threads: cannot read 'two' as an integer from");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> plan("UNIQUE", "BASIC", "--set", "BLOCKSIZE=4K"))
        .hasMessageContaining("BLOCKSIZE (a family setting): not settable here");
  }

  @Test
  void rocksDbPeersRunTheSameWorkloadInTheSameRounds() {
    EngineWrites.Plan withPeers = plan("UNIQUE", "ADAPTIVE", "--peers", "rocksdb,rocksdb-tuned", "--batch", "10");
    Map<String, List<EngineRunResult>> runs = EngineWrites.measure(withPeers, KeyDistribution.UNIQUE, s -> { });
    assertThat(runs.keySet()).containsExactly("ADAPTIVE", "rocksdb", "rocksdb-tuned");
    for (String peer : List.of("rocksdb", "rocksdb-tuned")) {
      EngineRunResult r = runs.get(peer).get(0);
      assertThat(r.getMisses()).as("%s: every sampled row read back whole", peer).isZero();
      assertThat(r.putNanos().getTotalCount()).as("2 writers × 200 batches").isEqualTo(400);
      assertThat(r.walBytes()).as("the WAL is on").isGreaterThanOrEqualTo(4000L * 4 * 25);
      assertThat(r.flushes()).as("the final flush at least").isPositive();
    }
    String table = EngineReport.render(withPeers.labels(), runs);
    assertThat(table).contains("× rocksdb").contains("| rocksdb-tuned |");
    assertThatThrownBy(() -> plan("UNIQUE", "ADAPTIVE", "--peers", "leveldb"))
        .hasMessageContaining("unknown peer 'leveldb'");
  }

  @Test
  void batchesWriteAllRowsInFewerCalls() {
    EngineWrites.Plan batched = plan("UNIQUE", "ADAPTIVE", "--batch", "100", "--durability", "SYNC_WAL");
    EngineRunResult r = EngineWrites.measure(batched, KeyDistribution.UNIQUE, s -> { })
        .get("ADAPTIVE").get(0);
    assertThat(r.putNanos().getTotalCount()).as("2 writers × 20 calls of 100 rows").isEqualTo(40);
    assertThat(r.getMisses()).isZero();
    assertThat(r.walRecords()).as("unique keys: one WAL record per call").isEqualTo(40);
    assertThat(r.walSyncs()).isPositive();
  }

  @Test
  void spreadShowsMedianAndRange() {
    assertThat(EngineReport.spread(new double[] {5, 1, 3}, "%.0f")).isEqualTo("3 (1–5)");
    assertThat(EngineReport.spread(new double[] {2, 2}, "%.0f")).isEqualTo("2");
    assertThat(EngineReport.spread(new double[] {4, 1, 3, 2}, "%.0f")).as("upper median").isEqualTo("3 (1–4)");
  }
}
