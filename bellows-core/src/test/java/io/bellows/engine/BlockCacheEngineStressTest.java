package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gets from several threads through a small L1 and L2 while a writer overwrites every row again and
 * again and flushes and compactions replace and delete files underneath. Every value names its row
 * and version, so a block served for the wrong file or a deleted one shows up as a wrong row or a
 * version older than one the same reader saw before (reads of a row never go back in time). At the
 * end, dropping the table closes every file, and both cache levels must hold nothing: no block of a
 * gone file stays behind and the off-heap buckets are all free again.
 */
@ExtendWith(SeedExtension.class)
class BlockCacheEngineStressTest {
  /** This test's seed (one per test; {@link SeedExtension} prints it and takes a fixed one for replay). */
  private Seed seed;

  @BeforeEach
  void takeSeed(Seed seed) {
    this.seed = seed;
  }
  private static final int ROWS = 300;
  private static final int ROUNDS = 40;
  private static final int READERS = 3;
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  @Test
  void getsNeverSeeAStaleBlockAndTheCachesEmptyWhenTheFilesAreGone() throws Exception {
    EngineOptions options = EngineOptions.builder()
        .set(Knobs.BLOCKCACHE_L1_SIZE, 64L * 1024)
        .set(Knobs.BLOCKCACHE_L1_ADMISSION, io.bellows.config.L1Admission.ALL) // L1 in front, L2 its victim cache
        .set(Knobs.BLOCKCACHE_L2_SIZE, 2L * 1028 * 1024)
        .set(Knobs.BLOCKCACHE_CACHE_ON_WRITE, true)
        .set(Knobs.COMPACTION_MIN_FILES, 2)
        .build();
    try (Bellows db = Bellows.open(dir, options)) {
      db.createTable(TableDescriptor.builder("t").flushSize(64L * 1024).durability(Durability.ASYNC_WAL)
          .family(ColumnFamilyDescriptor.builder("f").blockSize(1024).build()).build());
      Table t = db.getTable("t");
      write(t, 0);
      db.flush("t");
      AtomicBoolean writing = new AtomicBoolean(true);
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Thread> threads = new ArrayList<>();
      threads.add(thread(failure, () -> {
        try {
          for (int v = 1; v <= ROUNDS && failure.get() == null; v++) {
            write(t, v);
          }
        } finally {
          writing.set(false);
        }
      }));
      threads.add(thread(failure, () -> {
        int i = 0;
        while (writing.get() && failure.get() == null) {
          switch (i++ % 3) {
            case 0 -> db.flush("t");
            case 1 -> db.compact("t");
            default -> db.majorCompact("t");
          }
        }
      }));
      for (int r = 0; r < READERS; r++) {
        Random rnd = seed.random(r);
        threads.add(thread(failure, () -> {
          int[] seen = new int[ROWS];
          while (writing.get() && failure.get() == null) {
            int row = rnd.nextInt(ROWS);
            int v = versionOf(t.get(new Get(row(row))), row);
            if (v < seen[row]) {
              throw new AssertionError("row " + row + " went back from version " + seen[row] + " to " + v);
            }
            seen[row] = v;
          }
        }));
      }
      threads.forEach(Thread::start);
      for (Thread th : threads) {
        th.join();
      }
      assertThat(failure.get()).as("seed %d", seed.value()).isNull();
      for (int row = 0; row < ROWS; row++) {
        assertThat(versionOf(t.get(new Get(row(row))), row)).isEqualTo(ROUNDS);
      }
      Map<String, Number> m = db.metrics();
      assertThat(m.get("cache.l1.evictions").longValue()).isPositive();
      assertThat(m.get("cache.l1.data.hits").longValue()).isPositive();
      assertThat(m.get("cache.l2.data.misses").longValue()).isPositive(); // L1 misses went on to L2

      db.disableTable("t");
      db.dropTable("t");
      m = db.metrics();
      assertThat(m.get("cache.l1.bytes").longValue()).isZero();
      assertThat(m.get("cache.l1.blocks").longValue()).isZero();
      assertThat(m.get("cache.l2.blocks").longValue()).isZero();
      assertThat(m.get("cache.l2.slot.bytes").longValue()).isZero();
      assertThat(m.get("cache.l2.buckets.free").longValue()).isEqualTo(2);
    }
  }

  private static void write(Table t, int version) {
    List<Put> batch = new ArrayList<>();
    for (int row = 0; row < ROWS; row++) {
      batch.add(new Put(row(row)).addColumn(F, Q, Bytes.of(row(row) + "|" + version + "|" + "x".repeat(100))));
    }
    t.put(batch);
  }

  /** The version in the row's value; fails on a value of another row. */
  private static int versionOf(Result r, int row) {
    String v = Bytes.str(r.getValue(F, Q));
    String[] parts = v.split("\\|");
    if (!parts[0].equals(row(row))) {
      throw new AssertionError("get of " + row(row) + " returned the value of " + parts[0]);
    }
    return Integer.parseInt(parts[1]);
  }

  private static String row(int i) {
    return String.format("row%05d", i);
  }

  private static Thread thread(AtomicReference<Throwable> failure, Runnable body) {
    return new Thread(() -> {
      try {
        body.run();
      } catch (Throwable e) {
        failure.compareAndSet(null, e);
      }
    });
  }
}
