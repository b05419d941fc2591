package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.Durability;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kills a writing child JVM with SIGKILL at random moments, many times over the same directory, and
 * checks after each reopen that nothing acknowledged is lost (FSYNC_WAL, SYNC_WAL) or that each
 * writer's recovered rows are a prefix of what it wrote (ASYNC_WAL), and that every row is whole.
 * The kill moment is chosen by counting acknowledgements, not by sleeping.
 */
@ExtendWith(SeedExtension.class)
class CrashRecoveryTest {
  /** This test's seed (one per test method; every crash round draws from it). */
  private Seed seed;

  @BeforeEach
  void takeSeed(Seed seed) {
    this.seed = seed;
  }

  private static final int WRITERS = 2;

  @TempDir Path dir;

  static List<EngineConfigurations> configurations() {
    return EngineConfigurations.all();
  }

  /** Regions split during the run (the kill can land in any step of a split). */
  @ParameterizedTest
  @MethodSource("configurations")
  void fsyncWalLosesNoAcknowledgedWrite(EngineConfigurations config) throws Exception {
    crashRepeatedly(Durability.FSYNC_WAL, config, 3, 1, "online");
  }

  @ParameterizedTest
  @EnumSource(value = Durability.class, names = {"SYNC_WAL", "ASYNC_WAL"})
  void otherDurabilities(Durability durability) throws Exception {
    crashRepeatedly(durability, EngineConfigurations.all().get(0), 4);
    crashRepeatedly(durability, EngineConfigurations.named(
        "ADAPTIVE-CHUNK_SKIPLIST-CHUNK-MSLAB-OFFHEAP"), 2);
  }

  /**
   * Writers that put 50 rows per call (one WAL record per batch): no acknowledged row is lost and
   * every recovered row is whole.
   */
  @ParameterizedTest
  @EnumSource(value = Durability.class, names = {"FSYNC_WAL", "SYNC_WAL"})
  void batchedWritesLoseNoAcknowledgedRow(Durability durability) throws Exception {
    crashRepeatedly(durability, EngineConfigurations.all().get(0), 3, 50);
  }

  /**
   * A table pre-split into four regions (each writer's rows cross a region boundary; batches span
   * regions): no acknowledged row is lost and every recovered row is whole. Not with ASYNC_WAL:
   * regions flush on their own, so a later row of a writer can be in a flushed file of one region
   * while an earlier one, only in an unsynced log, is lost; no prefix is promised across regions.
   */
  @ParameterizedTest
  @EnumSource(value = Durability.class, names = {"FSYNC_WAL", "SYNC_WAL"})
  void preSplitTableLosesNoAcknowledgedRow(Durability durability) throws Exception {
    crashRepeatedly(durability, EngineConfigurations.named("ADAPTIVE-OBJECT_SKIPLIST-ARRAY"), 3, 1, "true");
    crashRepeatedly(durability, EngineConfigurations.all().get(0), 2, 50, "true");
  }

  private void crashRepeatedly(Durability durability, EngineConfigurations config, int rounds) throws Exception {
    crashRepeatedly(durability, config, rounds, 1);
  }

  private void crashRepeatedly(Durability durability, EngineConfigurations config, int rounds, int batch)
      throws Exception {
    crashRepeatedly(durability, config, rounds, batch, "false");
  }

  /** {@code regions}: as {@link CrashWriter}'s argument ({@code false}, {@code true}, {@code online}). */
  private void crashRepeatedly(Durability durability, EngineConfigurations config, int rounds, int batch,
      String regions) throws Exception {
    System.out.println("CrashRecoveryTest " + seed + " durability=" + durability + " config=" + config
        + " batch=" + batch + " regions=" + regions);
    Random random = seed.random();
    Map<Integer, Long> nextStart = new HashMap<>();
    Map<Integer, TreeSet<Long>> acked = new HashMap<>();
    for (int w = 0; w < WRITERS; w++) {
      nextStart.put(w, 0L);
      acked.put(w, new TreeSet<>());
    }
    for (int round = 0; round < rounds; round++) {
      long start = round * 1_000_000L;
      int killAfter = 50 + random.nextInt(1500);
      runAndKill(durability, config, start, killAfter, acked, batch, regions);
      verify(durability, config, start, acked, seed.value(), regions);
    }
  }

  private void runAndKill(Durability durability, EngineConfigurations config, long start, int killAfter,
      Map<Integer, TreeSet<Long>> acked, int batch, String regions) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // A child lives a second or two: C1 alone and the serial collector start it sooner, and change
    // nothing of what is written or when it is acknowledged.
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
        System.getProperty("java.class.path"), CrashWriter.class.getName(), dir.toString(), durability.name(), config.name(), Long.toString(start),
        Integer.toString(WRITERS), Integer.toString(batch), regions);
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    int count = 0;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("ACK ")) {
          String[] f = line.split(" ");
          acked.get(Integer.parseInt(f[1])).add(Long.parseLong(f[2]));
          if (++count >= killAfter) {
            p.destroyForcibly(); // SIGKILL on Unix
            break;
          }
        }
      }
    }
    p.destroyForcibly();
    p.waitFor();
    assertThat(count).as("child acknowledged writes before it was killed").isGreaterThan(0);
  }

  private void verify(Durability durability, EngineConfigurations config, long roundStart,
      Map<Integer, TreeSet<Long>> acked, long seed, String regions) {
    try (Bellows db = Bellows.open(dir, config.engine(EngineOptions.builder()).build())) {
      Table t = db.getTable(CrashWriter.TABLE);
      List<RegionInfo> now = db.regions(CrashWriter.TABLE);
      if (regions.equals("true")) {
        assertThat(now).hasSize(CrashWriter.SPLITS.size() + 1);
      }
      // The regions tile the key space: a crash in a split left the parent or both daughters.
      assertThat(now.get(0).startKey()).as("first region starts at the first key (seed %d)", seed).isEmpty();
      for (int i = 1; i < now.size(); i++) {
        assertThat(now.get(i).startKey()).as("region %d starts where the one before ends (seed %d)", i, seed)
            .isEqualTo(now.get(i - 1).endKey());
      }
      assertThat(now.get(now.size() - 1).endKey()).as("last region ends at the last key (seed %d)", seed).isEmpty();
      if (regions.equals("online")) {
        System.out.println("CrashRecoveryTest " + config + ": " + now.size() + " regions after the kill");
      }
      Map<Integer, TreeSet<Long>> present = new HashMap<>();
      for (int w = 0; w < WRITERS; w++) {
        present.put(w, new TreeSet<>());
      }
      try (ResultScanner s = t.getScanner(new Scan())) {
        for (Result r : s) {
          String key = Bytes.str(r.row());
          int writer = Integer.parseInt(key.substring(1, key.indexOf('-')));
          long n = Long.parseLong(key.substring(key.indexOf('-') + 1));
          assertThat(r.size()).as("row %s is whole (seed %d)", key, seed).isEqualTo(3);
          for (var c : r.cells()) {
            assertThat(c.value()).isEqualTo(CrashWriter.value(writer, n));
          }
          present.get(writer).add(n);
        }
      }
      for (int w = 0; w < WRITERS; w++) {
        TreeSet<Long> ack = acked.get(w);
        TreeSet<Long> got = present.get(w);
        if (durability == Durability.ASYNC_WAL) {
          // Per writer and per round, what survived is a prefix of what was written.
          List<Long> thisRound = new ArrayList<>(got.subSet(roundStart, roundStart + 1_000_000L));
          for (int i = 0; i < thisRound.size(); i++) {
            assertThat(thisRound.get(i)).as("writer %d recovered a prefix (seed %d)", w, seed).isEqualTo(roundStart + i);
          }
          // Keep only what is really there as "acknowledged and durable" for later rounds.
          ack.retainAll(got);
        } else {
          for (long n : ack) {
            if (!got.contains(n)) {
              throw new AssertionError("acknowledged write w" + w + "-" + n + " lost (seed " + seed + ")");
            }
          }
        }
        // Point reads agree with the scan.
        if (!ack.isEmpty()) {
          Result last = t.get(new Get(CrashWriter.rowKey(w, ack.last())));
          assertThat(last.isEmpty()).isFalse();
        }
      }
    }
  }
}
