package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.cell.Cell;
import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.config.Durability;
import io.bellows.schema.TableDescriptor;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Writers, readers and scanners at once while flushes and compactions run (tiny flush size, and a
 * thread forcing flushes and compactions) and regions split. Each mutation writes the same version
 * number into every column of its row in two families, so a torn row shows as mixed numbers.
 * Checks: no torn rows in gets or scans; every scan is one consistent snapshot per region (see the
 * snapshot check); nothing lost or duplicated at the end. Runs under every memory-store
 * configuration, whose tiny in-memory flush threshold (A × 64 KiB) makes in-memory flushes, merges
 * and compactions constant. Every other configuration starts with three regions (one per writer),
 * the others with one; during the run a thread splits the table at {@link #SPLIT_POINTS} (between
 * and inside writers' ranges), one split each time writer 0 has rewritten its rows a few times.
 */
@ExtendWith(SeedExtension.class)
class ConcurrentReadWriteTest {
  private static final int WRITERS = 3;
  private static final int ROWS_PER_WRITER = 40;
  private static final int ROUNDS = 60;
  private static final String[] FAMILIES = {"a", "b"};
  private static final int COLUMNS = 3;
  /**
   * Where the table splits during the run: each writer's range in halves, and between writers. A
   * scan reads each region at its own point, so the snapshot check holds within each half.
   */
  private static final List<String> SPLIT_POINTS = List.of("w0-r020", "w1", "w1-r020", "w2", "w2-r020");
  private static final int HALF = 20;
  /** Writer 0 allows one split after this many rounds. */
  private static final int ROUNDS_PER_SPLIT = ROUNDS / (SPLIT_POINTS.size() + 1);

  @TempDir Path dir;

  static List<EngineConfigurations> configurations() {
    return EngineConfigurations.all();
  }

  @ParameterizedTest
  @MethodSource("configurations")
  void noTornLostOrDuplicatedRows(EngineConfigurations config, Seed testSeed) throws Exception {
    EngineOptions opts = config.engine(EngineOptions.builder()).set(Knobs.COMPACTION_MIN_FILES, 2).build();
    try (Bellows db = Bellows.open(dir, opts)) {
      TableDescriptor.Builder tb = TableDescriptor.builder("t").flushSize(64L * 1024).durability(Durability.ASYNC_WAL);
      for (String f : FAMILIES) {
        tb.family(config.family(f).maxVersions(2).blockSize(2048).build());
      }
      // Every other configuration over three regions, one per writer: a scan crosses regions, each
      // read at its own point, so the snapshot check below holds per writer, not across writers.
      boolean split = EngineConfigurations.all().indexOf(config) % 2 == 1;
      db.createTable(tb.build(), split ? List.of(Bytes.of("w1"), Bytes.of("w2")) : List.of());
      Table t = db.getTable("t");
      AtomicBoolean done = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      Map<String, Long> lastWritten = new ConcurrentHashMap<>();
      CountDownLatch writersDone = new CountDownLatch(WRITERS);
      Semaphore splitsAllowed = new Semaphore(0);
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        final int writer = w;
        threads.add(thread(failure, () -> {
          try {
            for (long v = 1; v <= ROUNDS; v++) {
              for (int r = 0; r < ROWS_PER_WRITER; r++) {
                String row = String.format("w%d-r%03d", writer, r);
                Put p = new Put(Bytes.of(row));
                for (String f : FAMILIES) {
                  for (int c = 0; c < COLUMNS; c++) {
                    p.addColumn(Bytes.of(f), Bytes.of("c" + c), Bytes.toBytes(v));
                  }
                }
                t.put(p);
                lastWritten.put(row, v);
              }
              if (writer == 0 && v % ROUNDS_PER_SPLIT == 0) {
                splitsAllowed.release();
              }
            }
          } finally {
            writersDone.countDown();
          }
        }));
      }
      for (int g = 0; g < 2; g++) {
        final long seed = testSeed.value() + 1000 + g;
        threads.add(thread(failure, () -> {
          Random rnd = new Random(seed);
          while (!done.get()) {
            String row = String.format("w%d-r%03d", rnd.nextInt(WRITERS), rnd.nextInt(ROWS_PER_WRITER));
            Result res = t.get(new Get(Bytes.of(row)));
            checkWhole(res);
          }
        }));
      }
      // A scan that a split overlaps may resume in the daughters at a newer read point (as in
      // HBase), so it is one snapshot only per region and split part. Every other scan keeps splits
      // out (the splitter takes this lock's write side) and gets the snapshot check; the others race
      // with splits and get the order and whole-row checks.
      ReentrantReadWriteLock splitGate = new ReentrantReadWriteLock(true);
      AtomicInteger snapshotsChecked = new AtomicInteger();
      threads.add(thread(failure, () -> {
        for (int scan = 0; scan < 2 || !done.get(); scan++) {
          boolean snapshot = scan % 2 == 0;
          if (snapshot) {
            splitGate.readLock().lock();
          }
          List<String> notSnapshot = new ArrayList<>();
          try {
            try (ResultScanner s = t.getScanner(new Scan())) {
              String previous = "";
              long[] first = new long[WRITERS * 2];
              long[] last = new long[WRITERS * 2];
              for (Result r : s) {
                String row = Bytes.str(r.row());
                assertThat(row).as("scan returns rows in order, each once").isGreaterThan(previous);
                previous = row;
                checkWhole(r);
                // Each writer rewrites its rows in key order, round after round. A consistent
                // snapshot therefore shows, per writer (and per half, as halves may be regions read
                // at different points), versions that never rise along the key order and span at
                // most one round.
                int w = (row.charAt(1) - '0') * 2 + (Integer.parseInt(row.substring(4)) < HALF ? 0 : 1);
                long v = Bytes.getLong(r.cells().get(0).value(), 0);
                if (first[w] == 0) {
                  first[w] = v;
                }
                if (last[w] != 0 && v > last[w]) {
                  notSnapshot.add(row + " has version " + v + " after version " + last[w]);
                }
                if (first[w] - v > 1) {
                  notSnapshot.add(row + " has version " + v + ", more than one round before " + first[w]);
                }
                last[w] = v;
              }
            }
          } finally {
            if (snapshot) {
              splitGate.readLock().unlock();
            }
          }
          if (snapshot) {
            assertThat(notSnapshot).as("one snapshot per region").isEmpty();
            snapshotsChecked.incrementAndGet();
          }
        }
      }));
      List<String> splitOrder = new ArrayList<>(SPLIT_POINTS);
      java.util.Collections.shuffle(splitOrder, testSeed.random());
      threads.add(thread(failure, () -> {
        for (String key : splitOrder) {
          splitsAllowed.acquireUninterruptibly();
          if (!split || !key.matches("w\\d")) { // a pre-split table already starts at "w1" and "w2"
            splitGate.writeLock().lock();
            try {
              db.split("t", Bytes.of(key));
            } finally {
              splitGate.writeLock().unlock();
            }
          }
        }
      }));
      threads.add(thread(failure, () -> {
        while (!done.get()) {
          db.flush("t");
          db.compact("t");
        }
        db.majorCompact("t");
      }));
      for (Thread th : threads) {
        th.start();
      }
      writersDone.await();
      done.set(true);
      for (Thread th : threads) {
        th.join();
      }
      if (failure.get() != null) {
        throw new AssertionError("a worker failed", failure.get());
      }
      int rows = 0;
      try (ResultScanner s = t.getScanner(new Scan())) {
        for (Result r : s) {
          rows++;
          checkWhole(r);
          long v = Bytes.getLong(r.cells().get(0).value(), 0);
          assertThat(v).isEqualTo(lastWritten.get(Bytes.str(r.row())));
          assertThat(v).isEqualTo(ROUNDS);
        }
      }
      assertThat(rows).isEqualTo(WRITERS * ROWS_PER_WRITER);
      assertThat(db.regions("t")).as("the table split at every split point during the run")
          .hasSize(SPLIT_POINTS.size() + 1);
      assertThat(snapshotsChecked.get()).as("scans checked as snapshots").isPositive();
      assertThat(db.metrics().get("flush.count").longValue()).isPositive();
    }
  }

  private static void checkWhole(Result r) {
    if (r.isEmpty()) {
      return;
    }
    assertThat(r.size()).as("row %s has every column of both families", Bytes.str(r.row()))
        .isEqualTo(FAMILIES.length * COLUMNS);
    long v = Bytes.getLong(r.cells().get(0).value(), 0);
    for (Cell c : r.cells()) {
      assertThat(Bytes.getLong(c.value(), 0)).as("row %s is not torn", Bytes.str(r.row())).isEqualTo(v);
    }
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
