package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Delete;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.Table;
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
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The KV cache in the engine (docs/design/kv-cache.md): hot rows of poorly used blocks are promoted
 * and then served from it; a cached row never hides a newer put or delete, whatever flushes and
 * compactions do meanwhile; a compacted file's rows leave it.
 */
@ExtendWith(SeedExtension.class)
class KvCacheEngineTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  private static EngineOptions options(int minAccesses) {
    return EngineOptions.builder()
        .set(Knobs.BLOCKCACHE_L1_SIZE, 8L << 20)
        .set(Knobs.KVCACHE_INITIAL_SIZE, 1L << 20)
        .set(Knobs.KVCACHE_PROMOTE_MIN_ACCESSES, minAccesses)
        .build();
  }

  private static void create(Bellows db, boolean kvCache) {
    db.createTable(TableDescriptor.builder("t").family(ColumnFamilyDescriptor.builder("f")
        .set(Knobs.BLOCKSIZE, 4096).set(Knobs.KVCACHE, kvCache).build()).build());
  }

  private static String row(int i) {
    return String.format("r%06d", i);
  }

  private static long metric(Bellows db, String name) {
    Number n = db.metrics().get(name);
    return n == null ? 0 : n.longValue();
  }

  @Test
  void aHotRowOfAColdBlockIsPromotedAndThenServedWithoutTheBlock() {
    try (Bellows db = Bellows.open(dir, options(4))) {
      create(db, true);
      Table t = db.getTable("t");
      for (int i = 0; i < 2000; i++) {
        t.put(new Put(row(i)).addColumn(F, Q, Bytes.of("value-" + i)));
      }
      db.flush("t");
      for (int i = 0; i < 3; i++) {
        assertThat(t.get(new Get(row(i * 10))).isEmpty()).isFalse(); // a few cold reads
      }
      for (int i = 0; i < 5; i++) {
        assertThat(Bytes.str(t.get(new Get(row(500))).getValue(F, Q))).isEqualTo("value-500");
      }
      assertThat(metric(db, "kvcache.promotions")).isEqualTo(1);
      assertThat(metric(db, "kvcache.entries")).isEqualTo(1);
      long l1Hits = metric(db, "cache.l1.data.hits");
      long kvHits = metric(db, "kvcache.hits");
      for (int i = 0; i < 10; i++) {
        assertThat(Bytes.str(t.get(new Get(row(500))).getValue(F, Q))).isEqualTo("value-500");
      }
      assertThat(metric(db, "kvcache.hits") - kvHits).isEqualTo(10);
      assertThat(metric(db, "cache.l1.data.hits")).as("the block is not read again").isEqualTo(l1Hits);
      assertThat(metric(db, "read.file.lookups.cached")).isGreaterThanOrEqualTo(14);

      t.put(new Put(row(500)).addColumn(F, Q, Bytes.of("newer")));
      assertThat(Bytes.str(t.get(new Get(row(500))).getValue(F, Q))).as("memory store over the KV cache")
          .isEqualTo("newer");
      db.flush("t");
      assertThat(Bytes.str(t.get(new Get(row(500))).getValue(F, Q))).as("newer file over the KV cache")
          .isEqualTo("newer");
      t.delete(new Delete(Bytes.of(row(500))));
      assertThat(t.get(new Get(row(500))).isEmpty()).as("a delete hides the cached row").isTrue();
      db.flush("t");
      assertThat(t.get(new Get(row(500))).isEmpty()).isTrue();

      db.majorCompact("t");
      assertThat(metric(db, "kvcache.entries")).as("the compacted files' rows left").isZero();
      assertThat(t.get(new Get(row(500))).isEmpty()).isTrue();
      assertThat(Bytes.str(t.get(new Get(row(501))).getValue(F, Q))).isEqualTo("value-501");
    }
  }

  @Test
  void aHotRowOfABlockServedByL2IsPromotedThoughL1LetTheBlockGoBetweenItsReads() {
    // L1 holds 1 MiB of blocks (its other MiB is the KV cache's), L2 every block of the file. Between
    // two reads of the hot row, gets of 400 other blocks push the hot row's block out of L1, so each
    // of its reads is an L2 hit; the row's count must survive that to reach the promotion minimum.
    EngineOptions options = EngineOptions.builder()
        .set(Knobs.BLOCKCACHE_L1_SIZE, 2L << 20).set(Knobs.BLOCKCACHE_L2_SIZE, 32L << 20)
        .set(Knobs.KVCACHE_INITIAL_SIZE, 1L << 20).set(Knobs.KVCACHE_PROMOTE_MIN_ACCESSES, 4).build();
    try (Bellows db = Bellows.open(dir, options)) {
      create(db, true);
      Table t = db.getTable("t");
      byte[] value = new byte[200];
      for (int i = 0; i < 40_000; i++) {
        t.put(new Put(row(i)).addColumn(F, Q, value));
      }
      db.flush("t");
      int hot = 10_040; // 40 rows from the nearest cold rows: a block of its own
      for (int round = 0; round < 6; round++) {
        assertThat(t.get(new Get(row(hot))).isEmpty()).isFalse();
        for (int i = 0; i < 400; i++) {
          int cold = (i + 1) * 20 * 4 + round; // a different row of each block every round: never hot
          assertThat(t.get(new Get(row(cold))).isEmpty()).isFalse();
        }
      }
      assertThat(metric(db, "cache.l2.data.hits")).as("the hot row's block came back from L2").isGreaterThanOrEqualTo(4);
      assertThat(metric(db, "kvcache.promotions")).isEqualTo(1);
      long kvHits = metric(db, "kvcache.hits");
      assertThat(t.get(new Get(row(hot))).getValue(F, Q)).isEqualTo(value);
      assertThat(metric(db, "kvcache.hits") - kvHits).isEqualTo(1);
    }
  }

  @Test
  void aFamilyWithoutKvCacheNeverUsesIt() {
    try (Bellows db = Bellows.open(dir, options(1))) {
      create(db, false);
      Table t = db.getTable("t");
      for (int i = 0; i < 40; i++) {
        t.put(new Put(row(i)).addColumn(F, Q, Bytes.of("v")));
      }
      db.flush("t");
      for (int round = 0; round < 10; round++) {
        t.get(new Get(row(7)));
      }
      assertThat(metric(db, "kvcache.promotions") + metric(db, "kvcache.hits") + metric(db, "kvcache.misses"))
          .isZero();
      assertThat(metric(db, "cache.l1.data.hits") + metric(db, "cache.l2.data.hits"))
          .as("the block caches served every get after the first").isEqualTo(9);
    }
  }

  /**
   * Writers put and delete hot rows while readers get them, and flushes and compactions run: a get
   * that starts after a write was acknowledged must see that write or a later one. Each row's writer
   * numbers its operations; operation n deletes the row when n % 4 == 0, else puts value n, both at
   * timestamp n.
   */
  @Test
  void aCachedRowNeverHidesANewerPutOrDelete(Seed seed) throws Exception {
    int rows = 16;
    int opsPerRow = 400;
    AtomicLongArray acked = new AtomicLongArray(rows);
    AtomicBoolean done = new AtomicBoolean();
    java.util.concurrent.atomic.AtomicLong reads = new java.util.concurrent.atomic.AtomicLong();
    AtomicBoolean readerStopped = new AtomicBoolean();
    try (Bellows db = Bellows.open(dir, options(1))) {
      create(db, true);
      Table t = db.getTable("t");
      for (int i = 0; i < 3000; i++) { // cold neighbours, so hot rows sit in poorly used blocks
        t.put(new Put(row(i * 3 + 1)).addColumn(F, Q, Bytes.of("cold")));
      }
      db.flush("t");
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<?>> work = new ArrayList<>();
      work.add(pool.submit(() -> { // one writer for every hot row, in random order
        Random random = seed.random(1);
        int[] next = new int[rows];
        int left = rows * opsPerRow;
        while (left > 0) {
          int r = random.nextInt(rows);
          if (next[r] >= opsPerRow) {
            continue;
          }
          int n = ++next[r];
          // Timestamp n: a delete masks puts of its timestamp and older, so wall-clock ties would
          // let a delete hide the next put (docs/ARCHITECTURE.md); explicit ones order them.
          if (n % 4 == 0) {
            t.delete(new Delete(Bytes.of(hot(r)), n));
          } else {
            t.put(new Put(Bytes.of(hot(r)), n).addColumn(F, Q, Bytes.of(Long.toString(n))));
          }
          acked.set(r, n);
          left--;
          long written = (long) rows * opsPerRow - left;
          if (written % 100 == 0) {
            db.flush("t"); // hot rows reach files, whose cached blocks the readers then promote from
          }
          // Let the readers keep up (4 gets per write), so every run races the same way.
          while (reads.get() < 4 * written && !readerStopped.get()) {
            Thread.onSpinWait();
          }
        }
        return null;
      }));
      for (int reader = 0; reader < 2; reader++) {
        long part = 10 + reader;
        work.add(pool.submit(() -> {
          Random random = seed.random(part);
          try {
            while (!done.get()) {
              int r = random.nextInt(rows);
              long before = acked.get(r);
              Result res = t.get(new Get(hot(r)));
              long after = acked.get(r); // operations up to after + 1 may have been applied during the get
              long seen = res.isEmpty() ? -1 : Long.parseLong(Bytes.str(res.getValue(F, Q)));
              if (seen >= 0) {
                assertThat(seen).as("%s: row %s acknowledged %s, read %s", seed, hot(r), before, seen)
                    .isBetween(before, after + 1);
              } else if (before > 0 && before % 4 != 0 && (after + 1) / 4 == before / 4) {
                // Neither the last acknowledged operation nor any applied since is a delete: empty is stale.
                throw new AssertionError(seed + ": row " + hot(r) + " acknowledged put " + before + ", read nothing");
              }
              reads.incrementAndGet();
            }
          } finally {
            readerStopped.set(true);
          }
          return null;
        }));
      }
      work.add(pool.submit(() -> { // flushes and compactions under the readers
        Random random = seed.random(2);
        while (!done.get()) {
          if (random.nextInt(4) == 0) {
            db.majorCompact("t");
          } else {
            db.flush("t");
          }
        }
        return null;
      }));
      work.get(0).get();
      done.set(true);
      for (Future<?> f : work) {
        f.get();
      }
      pool.shutdown();
      assertThat(metric(db, "kvcache.promotions")).as("the race went through the KV cache").isPositive();
      assertThat(metric(db, "kvcache.hits")).isPositive();
    }
  }

  private static String hot(int r) {
    return row(r * 3 * 3000 / 16) + "-hot"; // spread over the cold rows' range, next to one
  }
}
