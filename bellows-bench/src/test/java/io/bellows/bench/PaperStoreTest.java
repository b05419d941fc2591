package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.config.Durability;
import io.bellows.config.MemStorePolicy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Both stores of the mixed workloads answer gets and scans alike, before and after a flush. */
class PaperStoreTest {
  private static final long SEED = Long.getLong("bellows.test.seed", System.nanoTime());

  @TempDir
  Path dir;

  @Test
  void bellowsAndRocksDbReadTheRowsThatWereWritten() throws Exception {
    System.out.println("seed " + SEED);
    EngineWorkload w = new EngineWorkload(KeyDistribution.UNIFORM, 1000, 300, 1, 0, SEED, dir, 10,
        Durability.ASYNC_WAL, 1, Map.of(), RowShape.PAPER);
    try (PaperStore bellows = new BellowsPaperStore(dir.resolve("b"),
            new StoreConfig(MemStorePolicy.BASIC, IndexKind.OBJECT, 64 * 1024), w);
         PaperStore rocks = new RocksDbPaperStore(dir.resolve("r"), RocksDbRun.Setup.DEFAULT, 64 * 1024)) {
      check(bellows);
      check(rocks);
    }
  }

  private static void check(PaperStore store) throws Exception {
    PaperPuts puts = new PaperPuts(SEED);
    UniformKeys ids = new UniformKeys(1000, SEED);
    TreeSet<byte[]> rows = new TreeSet<>(Arrays::compareUnsigned);
    List<io.bellows.client.Put> batch = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      long id = ids.nextRowId();
      batch.add(puts.put(id));
      rows.add(puts.rowKey(id));
      if (batch.size() == 10) {
        store.write(batch);
        batch = new ArrayList<>();
      }
    }
    for (int pass = 0; pass < 2; pass++) {
      byte[] first = rows.first();
      assertThat(store.getCell(first, PaperRows.qualifier(3))).isTrue();
      assertThat(store.getCell(puts.rowKey(KeyMixer.mix(5000)), PaperRows.qualifier(0))).as("never written").isFalse();
      assertThat(store.scan(first, 10)).isEqualTo(10);
      assertThat(store.scan(first, 1000)).as("every distinct row once").isEqualTo(rows.size());
      assertThat(store.scan(rows.last(), 100)).isEqualTo(1);
      store.flush();
    }
    assertThat(store.counters().flushes()).isPositive();
    assertThat(store.counters().walBytes()).isPositive();
  }
}
