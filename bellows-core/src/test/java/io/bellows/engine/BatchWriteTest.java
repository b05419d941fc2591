package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.client.Bellows;
import io.bellows.client.Delete;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.scan.RowScanner;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import io.bellows.util.NoSuchColumnFamilyException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Batches of rows are applied as mini-batches: one WAL record, one sync and one MVCC round for
 * many rows; every row validated first; duplicate rows in batch order; bounded WAL records; no
 * deadlock between batches with overlapping rows; a WAL failure acknowledges no row of the failed
 * mini-batch.
 */
class BatchWriteTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] G = Bytes.of("g");

  @TempDir Path dir;

  private final Clock.Manual clock = new Clock.Manual(1_000_000);

  /** No background sync (it would count as a sync): every sync is a writer's. */
  private EngineOptions options() {
    return EngineOptions.builder().clock(clock).set(Knobs.WAL_ASYNC_SYNC_PERIOD_MS, 3_600_000L).build();
  }

  private static void createTable(Bellows db) {
    db.createTable(TableDescriptor.builder("t").family("f").family("g").build());
  }

  private static void createTable(Engine engine) {
    engine.createTable(TableDescriptor.builder("t")
        .family(ColumnFamilyDescriptor.builder("f").maxVersions(3).build()).build());
  }

  private static long metric(Bellows db, String name) {
    return db.metrics().get(name).longValue();
  }

  private static Put row(String row, String value, Durability d) {
    return new Put(row).addColumn("f", "a", value).addColumn("f", "b", value).addColumn("g", "c", value)
        .setDurability(d);
  }

  @Test
  void aBatchOfHundredRowsIsOneWalRecordAndOneSync() {
    try (Bellows db = Bellows.open(dir, options())) {
      createTable(db);
      Table t = db.getTable("t");
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        puts.add(row(String.format("r%03d", i), "v" + i, Durability.SYNC_WAL));
      }
      long records = metric(db, "wal.records.appended");
      long syncs = metric(db, "wal.syncs");
      t.put(puts);
      assertThat(metric(db, "wal.records.appended") - records).isEqualTo(1);
      assertThat(metric(db, "wal.syncs") - syncs).isEqualTo(1);
      for (int i = 0; i < 100; i++) {
        Result r = t.get(new Get(String.format("r%03d", i)));
        assertThat(r.size()).isEqualTo(3);
        assertThat(Bytes.str(r.getValue(G, Bytes.of("c")))).isEqualTo("v" + i);
      }
      // A batch delete is a batch too.
      List<Delete> deletes = new ArrayList<>();
      for (int i = 0; i < 100; i += 2) {
        deletes.add(new Delete(String.format("r%03d", i)));
      }
      records = metric(db, "wal.records.appended");
      t.delete(deletes);
      assertThat(metric(db, "wal.records.appended") - records).isEqualTo(1);
      assertThat(t.get(new Get("r000")).isEmpty()).isTrue();
      assertThat(t.get(new Get("r001")).size()).isEqualTo(3);
    }
  }

  @Test
  void mixedDurabilitiesLogEveryRowButSkipWalOnesAtTheStrongestDurability() throws IOException {
    Path live = dir.resolve("live");
    Path image = dir.resolve("image");
    try (Bellows db = Bellows.open(live, options())) {
      createTable(db);
      Table t = db.getTable("t");
      long records = metric(db, "wal.records.appended");
      long forces = metric(db, "wal.forces");
      t.put(List.of(row("skip", "s", Durability.SKIP_WAL), row("async", "a", Durability.ASYNC_WAL),
          row("fsync", "f", Durability.FSYNC_WAL), row("default", "d", Durability.USE_DEFAULT)));
      assertThat(metric(db, "wal.records.appended") - records).isEqualTo(1);
      assertThat(metric(db, "wal.forces") - forces).as("FSYNC_WAL of one row forces the record").isEqualTo(1);

      // Only SKIP_WAL rows: nothing is appended, the rows are visible all the same.
      records = metric(db, "wal.records.appended");
      long syncs = metric(db, "wal.syncs");
      t.put(List.of(row("skip2", "s", Durability.SKIP_WAL), row("skip3", "s", Durability.SKIP_WAL)));
      assertThat(metric(db, "wal.records.appended") - records).isZero();
      assertThat(metric(db, "wal.syncs") - syncs).isZero();
      for (String r : List.of("skip", "async", "fsync", "default", "skip2", "skip3")) {
        assertThat(t.get(new Get(r)).size()).as(r).isEqualTo(3);
      }
      copyTree(live, image); // what a crash now leaves: the record is forced
    }
    try (Bellows db = Bellows.open(image, options())) {
      Table t = db.getTable("t");
      assertThat(metric(db, "wal.edits.replayed")).isEqualTo(1);
      for (String r : List.of("async", "fsync", "default")) {
        assertThat(t.get(new Get(r)).size()).as(r).isEqualTo(3);
      }
      for (String r : List.of("skip", "skip2", "skip3")) {
        assertThat(t.get(new Get(r)).isEmpty()).as("%s was not logged", r).isTrue();
      }
    }
  }

  @Test
  void twoMutationsOfOneRowInABatchApplyInBatchOrder() {
    try (Bellows db = Bellows.open(dir, options())) {
      createTable(db);
      Table t = db.getTable("t");
      long records = metric(db, "wal.records.appended");
      // Same column, same (engine-stamped) timestamp: only the order can decide, and the later wins.
      t.put(List.of(new Put("a").addColumn("f", "q", "1"), new Put("b").addColumn("f", "q", "1"),
          new Put("a").addColumn("f", "q", "2"), new Put("c").addColumn("f", "q", "1")));
      assertThat(metric(db, "wal.records.appended") - records)
          .as("the batch is split before the repeated row: [a, b], [a, c]").isEqualTo(2);
      assertThat(Bytes.str(t.get(new Get("a")).getValue(F, Bytes.of("q")))).isEqualTo("2");
      assertThat(Bytes.str(t.get(new Get("c")).getValue(F, Bytes.of("q")))).isEqualTo("1");

      // Explicit equal timestamps, three times the same row.
      t.put(List.of(new Put("x").addColumn(F, Bytes.of("q"), 5, Bytes.of("1")),
          new Put("x").addColumn(F, Bytes.of("q"), 5, Bytes.of("2")),
          new Put("x").addColumn(F, Bytes.of("q"), 5, Bytes.of("3"))));
      assertThat(Bytes.str(t.get(new Get("x")).getValue(F, Bytes.of("q")))).isEqualTo("3");

    }
  }

  @Test
  void aDeleteOfTheLatestVersionSeesThePutBeforeItInTheSameBatch() {
    try (LocalEngine engine = LocalEngine.open(dir, options())) {
      createTable(engine);
      TableRef ref = engine.table("t");
      byte[] q = Bytes.of("q");
      engine.mutate(ref, List.of(RowMutation.of(Bytes.of("r"), new Put("r").addColumn(F, q, Bytes.of("old")).cells(),
          Durability.SYNC_WAL)));
      clock.advance(1);
      // Through the engine a batch can mix puts and deletes of one row: the put, then a delete of
      // the latest version, which must resolve to that put (not to "old"), so "old" shows again.
      engine.mutate(ref, List.of(
          RowMutation.of(Bytes.of("r"), new Put("r").addColumn(F, q, Bytes.of("new")).cells(), Durability.SYNC_WAL),
          RowMutation.of(Bytes.of("r"), new Delete("r").addColumn(F, q).cells(), Durability.SYNC_WAL)));
      try (RowScanner s = engine.scan(ref, io.bellows.scan.ScanQuery.builder().singleRow(Bytes.of("r")).build())) {
        List<Cell> cells = new ArrayList<>();
        assertThat(s.nextRow(cells)).isTrue();
        assertThat(cells).hasSize(1);
        assertThat(Bytes.str(cells.get(0).value())).isEqualTo("old");
      }
    }
  }

  @Test
  void aBadRowFailsTheWholeBatchWithNothingApplied() {
    try (Bellows db = Bellows.open(dir, EngineOptions.builder().clock(clock).set(Knobs.MAX_VALUE_SIZE, 1024L)
        .set(Knobs.WAL_ASYNC_SYNC_PERIOD_MS, 3_600_000L).build())) {
      createTable(db);
      Table t = db.getTable("t");
      long records = metric(db, "wal.records.appended");
      List<Put> badFamily = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        badFamily.add(row("r" + i, "v", Durability.SYNC_WAL));
      }
      badFamily.add(new Put("bad").addColumn("nope", "q", "v"));
      assertThatThrownBy(() -> t.put(badFamily)).isInstanceOf(NoSuchColumnFamilyException.class);
      List<Put> tooLarge = new ArrayList<>(badFamily.subList(0, 50));
      tooLarge.add(25, new Put("big").addColumn(F, Bytes.of("q"), new byte[2048]));
      assertThatThrownBy(() -> t.put(tooLarge)).isInstanceOf(IllegalArgumentException.class);
      assertThat(metric(db, "wal.records.appended")).isEqualTo(records);
      try (ResultScanner s = t.getScanner(new Scan())) {
        assertThat(s.iterator().hasNext()).as("nothing applied").isFalse();
      }
    }
  }

  @Test
  void aHugeBatchIsSplitSoThatEveryWalRecordStaysBounded() {
    try (Bellows db = Bellows.open(dir, options())) {
      createTable(db);
      Table t = db.getTable("t");
      List<Put> many = new ArrayList<>();
      for (int i = 0; i < 2500; i++) {
        many.add(new Put(String.format("small%05d", i)).addColumn("f", "q", "v"));
      }
      long records = metric(db, "wal.records.appended");
      t.put(many);
      assertThat(metric(db, "wal.records.appended") - records).as("1000 rows at most per mini-batch").isEqualTo(3);

      List<Put> big = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        big.add(new Put("big" + i).addColumn(F, Bytes.of("q"), new byte[1024 * 1024]));
      }
      records = metric(db, "wal.records.appended");
      long bytes = metric(db, "wal.bytes.appended");
      t.put(big);
      // 4 MiB at most per record: three rows of 1 MiB and a bit, three, three, one.
      assertThat(metric(db, "wal.records.appended") - records).isEqualTo(4);
      assertThat(metric(db, "wal.bytes.appended") - bytes).isGreaterThan(10L * 1024 * 1024);
      assertThat(t.get(new Get("small02499")).isEmpty()).isFalse();
      assertThat(t.get(new Get("big9")).size()).isEqualTo(1);
    }
  }

  /**
   * A multi-row edit whose cells span a flushed store and an unflushed one: replay skips the cells
   * of the flushed store (its flushedSeqId covers the edit) and applies the others.
   */
  @Test
  void replayOfABatchSkipsOnlyTheCellsOfStoresThatFlushedIt() throws IOException {
    Path live = dir.resolve("live");
    Path image = dir.resolve("image");
    EngineOptions opts = EngineOptions.builder().clock(clock).set(Knobs.MEMSTORE_BLOCK_MULTIPLIER, 1.0).build();
    try (Bellows db = Bellows.open(live, opts)) {
      db.createTable(TableDescriptor.builder("t").flushSize(64 * 1024).family("f").family("g").build());
      Table t = db.getTable("t");
      List<Put> both = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        both.add(row("both" + i, "v" + i, Durability.SYNC_WAL));
      }
      t.put(both);
      List<Put> fill = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        fill.add(new Put("fill" + i).addColumn(F, Bytes.of("q"), new byte[8 * 1024]).setDurability(Durability.SYNC_WAL));
      }
      t.put(fill); // f is now over its flush size (and blocking multiplier): writes to f wait for its flush
      t.put(List.of(new Put("after1").addColumn("f", "q", "v").setDurability(Durability.SYNC_WAL),
          new Put("after2").addColumn("f", "q", "v").setDurability(Durability.SYNC_WAL)));
      assertThat(db.storeMetrics("t").get("f").get("store.files").longValue()).isEqualTo(1);
      assertThat(db.storeMetrics("t").get("g").get("store.files").longValue()).isZero();
      copyTree(live, image);
    }
    try (Bellows db = Bellows.open(image, opts)) {
      // "both": f cells skipped, g cells replayed; "fill": skipped; "after": replayed.
      assertThat(metric(db, "wal.edits.replayed")).isEqualTo(2);
      assertThat(metric(db, "wal.edits.skipped")).isEqualTo(1);
      Table t = db.getTable("t");
      for (int i = 0; i < 10; i++) {
        Result r = t.get(new Get("both" + i));
        assertThat(r.size()).isEqualTo(3);
        for (Cell c : r.cells()) {
          assertThat(Bytes.str(c.value())).isEqualTo("v" + i);
        }
      }
      assertThat(t.get(new Get("fill19")).size()).isEqualTo(1);
      assertThat(t.get(new Get("after2")).size()).isEqualTo(1);
    }
  }

  /**
   * The WAL cannot create the file its roll needs (its directory is gone) while a batch is
   * appended: the current file is sound, so the batch goes there and is acknowledged; after the
   * directory is back, a reopen has both batches. (A batch whose log fails for good acknowledges no
   * row: IoErrorTest.)
   */
  @Test
  void aWalRollThatCannotCreateItsFileDoesNotFailTheBatch() throws IOException {
    EngineOptions opts = EngineOptions.builder().clock(clock).set(Knobs.WAL_ROLL_SIZE, 64L * 1024).build();
    Path wal = dir.resolve("wal");
    Path away = dir.resolve("wal-away");
    try (Bellows db = Bellows.open(dir, opts)) {
      createTable(db);
      Table t = db.getTable("t");
      List<Put> first = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        first.add(new Put("first" + i).addColumn(F, Bytes.of("q"), new byte[1024]).setDurability(Durability.SYNC_WAL));
      }
      t.put(first); // one record of ~100 KiB: the current WAL file is past its roll size
      Files.move(wal, away);
      List<Put> second = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        second.add(row("second" + i, "v", Durability.SYNC_WAL));
      }
      t.put(second);
      assertThat(db.backgroundError()).isEmpty();
      Files.move(away, wal);
    }
    try (Bellows again = Bellows.open(dir, opts)) {
      Table t = again.getTable("t");
      assertThat(t.get(new Get("first99")).size()).isEqualTo(1);
      for (int i = 0; i < 10; i++) {
        assertThat(t.get(new Get("second" + i)).isEmpty()).as("second%d", i).isFalse();
      }
    }
  }


  /**
   * Writers with batches over overlapping rows (in random order, with repeats), a single-row writer
   * on the same rows, and a reader that checks every row it sees is whole. Lock order is what keeps
   * this from deadlocking; the timeout turns a deadlock into a failure.
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void concurrentBatchesWithOverlappingRowsNeitherDeadlockNorLoseRows() throws Exception {
    final int writers = 4;
    final int batches = 150;
    final int shared = 200;
    try (Bellows db = Bellows.open(dir, EngineOptions.builder().build())) {
      db.createTable(TableDescriptor.builder("t").flushSize(256 * 1024)
          .family(ColumnFamilyDescriptor.builder("f").build()).build());
      Table t = db.getTable("t");
      Map<String, Boolean> acked = new ConcurrentHashMap<>();
      AtomicBoolean done = new AtomicBoolean();
      ExecutorService pool = Executors.newFixedThreadPool(writers + 2);
      try {
        List<Future<?>> writing = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          final int writer = w;
          writing.add(pool.submit(() -> {
            Random random = new Random(writer);
            for (int b = 0; b < batches; b++) {
              List<Put> puts = new ArrayList<>();
              List<String> rows = new ArrayList<>();
              for (int i = 0; i < 40; i++) {
                rows.add(String.format("s%03d", random.nextInt(shared)));
              }
              rows.add("own-" + writer + "-" + b);
              for (String r : rows) {
                puts.add(wholeRow(r, writer + "-" + b, Durability.values()[1 + random.nextInt(4)]));
              }
              t.put(puts);
              for (String r : rows) {
                acked.put(r, true);
              }
            }
            return null;
          }));
        }
        writing.add(pool.submit(() -> {
          Random random = new Random(99);
          for (int i = 0; i < batches * 10; i++) {
            String r = String.format("s%03d", random.nextInt(shared));
            t.put(wholeRow(r, "single-" + i, Durability.SYNC_WAL));
            acked.put(r, true);
          }
          return null;
        }));
        Future<Integer> reading = pool.submit(() -> {
          int scans = 0;
          while (!done.get()) {
            try (ResultScanner s = t.getScanner(new Scan())) {
              for (Result r : s) {
                assertWhole(r);
              }
            }
            scans++;
          }
          return scans;
        });
        for (Future<?> f : writing) {
          f.get();
        }
        done.set(true);
        assertThat(reading.get()).isPositive();
      } finally {
        pool.shutdownNow();
      }
      assertThat(acked).hasSizeGreaterThan(writers * batches);
      for (String r : acked.keySet()) {
        Result res = t.get(new Get(r));
        assertThat(res.isEmpty()).as("acknowledged row %s", r).isFalse();
        assertWhole(res);
      }
    }
  }

  private static Put wholeRow(String row, String tag, Durability d) {
    Put p = new Put(row).setDurability(d);
    for (int c = 0; c < 3; c++) {
      p.addColumn("f", "c" + c, row + "|" + tag);
    }
    return p;
  }

  private static void assertWhole(Result r) {
    String row = Bytes.str(r.row());
    assertThat(r.size()).as("row %s has its 3 cells", row).isEqualTo(3);
    Set<String> values = new java.util.HashSet<>();
    for (Cell c : r.cells()) {
      values.add(Bytes.str(c.value()));
    }
    assertThat(values).as("row %s shows one write", row).hasSize(1);
    assertThat(values.iterator().next()).startsWith(row + "|");
  }

  static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      s.forEach(p -> {
        try {
          Path target = to.resolve(from.relativize(p).toString());
          if (Files.isDirectory(p)) {
            Files.createDirectories(target);
          } else if (!p.getFileName().toString().equals("LOCK")) {
            Files.copy(p, target);
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
