package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.client.Table;
import io.bellows.config.Compression;
import io.bellows.config.EngineOptions;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Online region split: rows kept exactly once, routing, concurrent writes, reopen, recovery, boundaries. */
class SplitTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] G = Bytes.of("g");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  /** What the tests do at each split step; the engines opened with {@link #openListening} call it. */
  private volatile SplitListener hook = SplitListener.NONE;

  @AfterEach
  void resetHook() {
    hook = SplitListener.NONE;
  }

  /** Opens the engine on {@code d} with the split listener that calls {@link #hook}. */
  private Bellows openListening(Path d, EngineOptions options, io.bellows.fs.FileSystem fs) {
    return Bellows.over(LocalEngine.open(d, options, fs, step -> hook.step(step)));
  }

  private Bellows openListening(Path d, EngineOptions options) {
    return openListening(d, options, io.bellows.fs.LocalFileSystem.INSTANCE);
  }

  /** Uncompressed: the tests choose split points by file sizes, which follow from the rows so. */
  private static TableDescriptor table(String name) {
    return TableDescriptor.builder(name)
        .family(ColumnFamilyDescriptor.builder("f").blockSize(1024).compression(Compression.NONE).build())
        .family(ColumnFamilyDescriptor.builder("g").blockSize(1024).compression(Compression.NONE).build())
        .build();
  }

  private static String row(int i) {
    return String.format("row%05d", i);
  }

  /** Writes rows [from, to) to both families, remembering them in the model. */
  private static void write(Table t, int from, int to, String value, NavigableMap<String, String> model) {
    List<Put> batch = new ArrayList<>();
    for (int i = from; i < to; i++) {
      String v = value + i;
      batch.add(new Put(row(i)).addColumn("f", "q", v).addColumn("g", "q", v));
      model.put(row(i), v);
    }
    t.put(batch);
  }

  /** The whole table by a scan, checking each row appears once, in order, with both families. */
  private static NavigableMap<String, String> scanAll(Table t) {
    NavigableMap<String, String> out = new TreeMap<>();
    String last = null;
    try (ResultScanner s = t.getScanner(new Scan())) {
      for (Result r : s) {
        String row = Bytes.str(r.row());
        assertThat(last == null || last.compareTo(row) < 0).as("row %s after %s", row, last).isTrue();
        last = row;
        assertThat(Bytes.str(r.getValue(G, Q))).isEqualTo(Bytes.str(r.getValue(F, Q)));
        assertThat(out.put(row, Bytes.str(r.getValue(F, Q)))).isNull();
      }
    }
    return out;
  }

  /**
   * A daughter still reading its parent's linked files may have its middle row outside its range;
   * a split without a key then takes the next largest region instead of refusing (before, this
   * depended on a background compaction rewriting the links first, and failed now and then).
   */
  @Test
  void splitWithoutAKeyPassesOverADaughterWhoseMiddleLiesOutsideItsRange() {
    NavigableMap<String, String> model = new TreeMap<>();
    EngineOptions noCompactions = EngineOptions.builder()
        .set(io.bellows.config.Knobs.COMPACTION_MIN_FILES, 1000).set(io.bellows.config.Knobs.COMPACTION_MAX_FILES, 1000)
        .build();
    try (Bellows db = Bellows.open(dir, noCompactions)) {
      db.createTable(table("t"));
      Table t = db.getTable("t");
      write(t, 0, 2000, "a", model);
      db.flush("t");
      write(t, 1000, 3000, "b", model); // a second file, larger (longer values), rows 1000..2999
      db.split("t", Bytes.of(row(1500)));
      write(t, 0, 10, "d", model); // the first daughter now holds the most bytes
      db.flush("t");
      // Its largest linked file's middle row (~2000) lies in the second daughter's range.
      db.split("t");
      List<RegionInfo> regions = db.regions("t");
      assertThat(regions).hasSize(3);
      assertThat(Bytes.str(regions.get(0).endKey())).isEqualTo(row(1500));
      assertThat(Bytes.str(regions.get(1).startKey())).isEqualTo(row(1500));
      assertThat(Bytes.str(regions.get(2).startKey())).isGreaterThan(row(1500));
      assertThat(scanAll(t)).isEqualTo(model);
    }
  }

  @Test
  void splitKeepsEveryRowExactlyOnceAndRoutesToTheDaughters() throws IOException {
    NavigableMap<String, String> model = new TreeMap<>();
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"));
      Table t = db.getTable("t");
      write(t, 0, 2000, "a", model);
      db.flush("t");
      write(t, 1000, 3000, "b", model); // some only in memory: the split flushes them
      assertThat(scanAll(t)).isEqualTo(model);
      db.split("t", Bytes.of(row(1500)));
      List<RegionInfo> regions = db.regions("t");
      assertThat(regions).hasSize(2);
      assertThat(Bytes.str(regions.get(0).endKey())).isEqualTo(row(1500));
      assertThat(Bytes.str(regions.get(1).startKey())).isEqualTo(row(1500));
      assertThat(regions).extracting(RegionInfo::memStoreBytes).containsOnly(0L);
      assertThat(scanAll(t)).isEqualTo(model);
      // New writes go to the daughter whose range holds them.
      write(t, 1490, 1510, "c", model);
      regions = db.regions("t");
      assertThat(regions.get(0).memStoreBytes()).isPositive();
      assertThat(regions.get(1).memStoreBytes()).isPositive();
      write(t, 0, 10, "d", model);
      db.flush("t");
      assertThat(scanAll(t)).isEqualTo(model);
      // Split again without a key: the middle of the largest region.
      db.split("t");
      assertThat(db.regions("t")).hasSize(3);
      assertThat(scanAll(t)).isEqualTo(model);
      db.majorCompact("t");
      assertThat(scanAll(t)).isEqualTo(model);
      // The parent's directory is gone; the catalog holds no intent.
      try (Stream<Path> s = Files.list(dir.resolve("tables").resolve("1-t"))) {
        assertThat(s.count()).isEqualTo(3);
      }
    }
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      assertThat(db.regions("t")).hasSize(3);
      assertThat(scanAll(db.getTable("t"))).isEqualTo(model);
    }
  }

  @Test
  void compactionOfADaughterDropsTheOtherHalf() {
    NavigableMap<String, String> model = new TreeMap<>();
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"));
      Table t = db.getTable("t");
      write(t, 0, 1000, "a", model);
      db.flush("t");
      long before = db.regions("t").get(0).storeFileBytes();
      db.split("t", Bytes.of(row(500)));
      List<RegionInfo> linked = db.regions("t");
      assertThat(linked.get(0).storeFileBytes()).isEqualTo(before); // the same files, linked
      db.majorCompact("t");
      List<RegionInfo> compacted = db.regions("t");
      assertThat(compacted.get(0).storeFileBytes()).isLessThan(before * 2 / 3);
      assertThat(compacted.get(1).storeFileBytes()).isLessThan(before * 2 / 3);
      assertThat(scanAll(t)).isEqualTo(model);
    }
  }

  /** MAX_FILESIZE: a region whose largest store's files reach it splits by itself after a flush. */
  @Test
  @Timeout(60)
  void aRegionSplitsByItselfAtMaxFileSize() throws Exception {
    CountDownLatch split = new CountDownLatch(1);
    hook = step -> {
      if (step.equals("parent-deleted")) {
        split.countDown();
      }
    };
    NavigableMap<String, String> model = new TreeMap<>();
    try (Bellows db = openListening(dir, EngineOptions.defaults())) {
      TableDescriptor.Builder b = TableDescriptor.builder("t");
      b.set("MAX_FILESIZE", Long.toString(64 * 1024));
      b.flushSize(64 * 1024);
      // Uncompressed: these rows' values compress so well that the files would not reach the size.
      b.family(ColumnFamilyDescriptor.builder("f").blockSize(1024).compression(Compression.NONE).build());
      b.family(ColumnFamilyDescriptor.builder("g").blockSize(1024).compression(Compression.NONE).build());
      db.createTable(b.build());
      Table t = db.getTable("t");
      for (int i = 0; i < 4000 && split.getCount() > 0; i += 100) {
        write(t, i, i + 100, "a", model);
      }
      assertThat(split.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(db.regions("t").size()).isGreaterThanOrEqualTo(2);
      assertThat(scanAll(t)).isEqualTo(model);
    }
    hook = SplitListener.NONE;
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      assertThat(db.regions("t").size()).isGreaterThanOrEqualTo(2);
      assertThat(scanAll(db.getTable("t"))).isEqualTo(model);
    }
  }

  /**
   * A split commits, then its daughters cannot open their files (a read error): the table's other
   * region goes on, and its acknowledged rows, still only in memory and the log, survive the close
   * and the reopen, which opens the daughters. (The table's regions were once dropped from the
   * routing here, so the close flushed none of them and deleted the log as if it had.)
   */
  @Test
  @Timeout(60)
  void aSplitWhoseDaughtersCannotOpenLosesNothingOfTheOtherRegions() {
    io.bellows.fs.FaultInjectingFileSystem fs = new io.bellows.fs.FaultInjectingFileSystem(
        io.bellows.fs.LocalFileSystem.INSTANCE);
    io.bellows.fs.Fault readsFail = fs.inject(io.bellows.fs.Fault.on(io.bellows.fs.FaultInjectingFileSystem.Error.EIO,
        io.bellows.fs.FaultInjectingFileSystem.Op.READ).paths("\\.sst").disable());
    hook = step -> {
      if (step.equals("committed")) {
        readsFail.enable(); // the daughters open their linked files next
      }
    };
    try (Bellows db = openListening(dir, EngineOptions.builder()
        .set(io.bellows.config.Knobs.DEFAULT_DURABILITY, io.bellows.config.Durability.FSYNC_WAL).build(), fs)) {
      db.createTable(table("t"), List.of(Bytes.of("m")));
      Table t = db.getTable("t");
      for (int i = 0; i < 20; i++) {
        t.put(new Put(Bytes.of("a" + i)).addColumn(F, Q, Bytes.of("v" + i)));
      }
      db.flush("t"); // the region to split needs a file to find its middle
      for (int i = 0; i < 20; i++) {
        t.put(new Put(Bytes.of("z" + i)).addColumn(F, Q, Bytes.of("w" + i))); // the other region, in memory
      }
      assertThatThrownBy(() -> db.split("t", Bytes.of("a5"))).isInstanceOf(RuntimeException.class);
      readsFail.disable();
      hook = SplitListener.NONE;
      assertThat(Bytes.str(t.get(new Get(Bytes.of("z3"))).getValue(F, Q))).as("the other region serves").isEqualTo("w3");
      t.put(new Put(Bytes.of("z99")).addColumn(F, Q, Bytes.of("late")));
      assertThatThrownBy(() -> db.split("t", Bytes.of("z5"))).isInstanceOf(io.bellows.util.StorageException.class)
          .hasMessageContaining("disable and enable the table");
    }
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      Table t = db.getTable("t");
      for (int i = 0; i < 20; i++) {
        assertThat(Bytes.str(t.get(new Get(Bytes.of("a" + i))).getValue(F, Q))).isEqualTo("v" + i);
        assertThat(Bytes.str(t.get(new Get(Bytes.of("z" + i))).getValue(F, Q))).as("row z%d", i).isEqualTo("w" + i);
      }
      assertThat(Bytes.str(t.get(new Get(Bytes.of("z99"))).getValue(F, Q))).isEqualTo("late");
      assertThat(db.regions("t")).hasSize(3);
    }
  }

  @Test
  void badSplitKeysAreRefused() {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"), List.of(Bytes.of("m")));
      assertThatThrownBy(() -> db.split("t", Bytes.of("m"))).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> db.split("t", Bytes.EMPTY)).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> db.split("t")).isInstanceOf(IllegalArgumentException.class); // no data
      assertThat(db.regions("t")).hasSize(2);
    }
  }

  /** Gets at, just before and just after the split key, and scans bounded there, on both daughters. */
  @Test
  void randomizedBoundaries() {
    Random rnd = new Random(42);
    for (int round = 0; round < 5; round++) {
      Path d = dir.resolve("r" + round);
      NavigableMap<String, String> model = new TreeMap<>();
      try (Bellows db = Bellows.open(d, EngineOptions.defaults())) {
        db.createTable(table("t"));
        Table t = db.getTable("t");
        int n = 200 + rnd.nextInt(800);
        for (int i = 0; i < n; i++) {
          int k = rnd.nextInt(n);
          String v = "v" + rnd.nextInt();
          t.put(new Put(row(k)).addColumn("f", "q", v).addColumn("g", "q", v));
          model.put(row(k), v);
          if (rnd.nextInt(200) == 0) {
            db.flush("t");
          }
        }
        // Split at a present row, or at a key between rows.
        String key = rnd.nextBoolean() ? row(1 + rnd.nextInt(n - 1)) : row(1 + rnd.nextInt(n - 1)) + "!";
        db.split("t", Bytes.of(key));
        if (rnd.nextBoolean()) {
          db.majorCompact("t");
        }
        for (String probe : List.of(key, row(Integer.parseInt(key.substring(3, 8)) - 1),
            row(Integer.parseInt(key.substring(3, 8))), row(Integer.parseInt(key.substring(3, 8)) + 1), key + "\u0000")) {
          Result r = t.get(new Get(Bytes.of(probe)));
          String want = model.get(probe);
          assertThat(r.isEmpty() ? null : Bytes.str(r.getValue(F, Q))).as("get %s at split %s", probe, key).isEqualTo(want);
        }
        // Scans of each side end and start exactly at the key.
        try (ResultScanner s = t.getScanner(new Scan().withStopRow(Bytes.of(key)))) {
          int count = 0;
          for (Result r : s) {
            assertThat(Bytes.str(r.row())).isLessThan(key);
            count++;
          }
          assertThat(count).isEqualTo(model.headMap(key).size());
        }
        try (ResultScanner s = t.getScanner(new Scan().withStartRow(Bytes.of(key)))) {
          int count = 0;
          for (Result r : s) {
            assertThat(Bytes.str(r.row())).isGreaterThanOrEqualTo(key);
            count++;
          }
          assertThat(count).isEqualTo(model.tailMap(key, true).size());
        }
        assertThat(scanAll(t)).isEqualTo(model);
      }
    }
  }

  @Test
  @Timeout(60)
  void writesDuringASplitAllLand() throws Exception {
    NavigableMap<String, String> model = new TreeMap<>();
    try (Bellows db = openListening(dir, EngineOptions.defaults())) {
      db.createTable(table("t"));
      Table t = db.getTable("t");
      write(t, 0, 3000, "a", model);
      db.flush("t");
      CountDownLatch inSplit = new CountDownLatch(1);
      CountDownLatch writerStarted = new CountDownLatch(1);
      AtomicInteger written = new AtomicInteger();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      ConcurrentWriter w = new ConcurrentWriter(t, written, failure, inSplit, writerStarted);
      java.util.concurrent.atomic.AtomicBoolean writerBlocked = new java.util.concurrent.atomic.AtomicBoolean();
      hook = step -> {
        if (step.equals("flushed")) {
          inSplit.countDown();
          try {
            writerStarted.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          // Until the writer waits for the parent's updates lock (the only read-write lock on its
          // way), bounded; the test fails below if it never did.
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
          while (System.nanoTime() < deadline) {
            Object blocker = java.util.concurrent.locks.LockSupport.getBlocker(w);
            if (blocker != null && blocker.getClass().getName().contains("ReentrantReadWriteLock")) {
              writerBlocked.set(true);
              break;
            }
            Thread.onSpinWait();
          }
        }
      };
      w.start();
      // A scan opened before the split goes on through it.
      List<String> scanned = new ArrayList<>();
      try (ResultScanner s = t.getScanner(new Scan().withStopRow(Bytes.of(row(3000))))) {
        for (int i = 0; i < 100; i++) {
          scanned.add(Bytes.str(s.next().row()));
        }
        db.split("t", Bytes.of(row(1500)));
        for (Result r : s) {
          scanned.add(Bytes.str(r.row()));
        }
      }
      w.stopAfter(200);
      w.join();
      assertThat(failure.get()).isNull();
      assertThat(writerBlocked).as("a writer waited for the split").isTrue();
      assertThat(scanned).hasSize(3000).doesNotHaveDuplicates().isSorted();
      for (int i = 0; i < written.get(); i++) {
        model.put("w" + row(i), "x" + i);
      }
      NavigableMap<String, String> got = new TreeMap<>();
      try (ResultScanner s = t.getScanner(new Scan())) {
        for (Result r : s) {
          got.put(Bytes.str(r.row()), Bytes.str(r.getValue(F, Q)));
        }
      }
      assertThat(got).isEqualTo(model);
      assertThat(db.regions("t")).hasSize(2);
    }
  }

  /** Writes rows "w<row(i)>" (in the upper daughter: "w" sorts after "row") until stopped. */
  private static final class ConcurrentWriter extends Thread {
    private final Table t;
    private final AtomicInteger written;
    private final AtomicReference<Throwable> failure;
    private final CountDownLatch inSplit;
    private final CountDownLatch started;
    private volatile int stopAt = Integer.MAX_VALUE;

    ConcurrentWriter(Table t, AtomicInteger written, AtomicReference<Throwable> failure, CountDownLatch inSplit,
        CountDownLatch started) {
      this.t = t;
      this.written = written;
      this.failure = failure;
      this.inSplit = inSplit;
      this.started = started;
    }

    void stopAfter(int more) {
      stopAt = written.get() + more;
    }

    @Override
    public void run() {
      try {
        inSplit.await();
        started.countDown();
        for (int i = 0; i < stopAt; i++) {
          t.put(new Put("w" + row(i)).addColumn("f", "q", "x" + i).addColumn("g", "q", "x" + i));
          written.set(i + 1);
        }
      } catch (Throwable e) {
        failure.set(e);
      }
    }
  }

  @Test
  void batchesAcrossTheSplitKeyLandAfterTheSplit() {
    NavigableMap<String, String> model = new TreeMap<>();
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"));
      Table t = db.getTable("t");
      write(t, 0, 100, "a", model);
      db.split("t", Bytes.of(row(50)));
      write(t, 0, 100, "b", model);
      t.incrementColumnValue(Bytes.of(row(10)), F, Bytes.of("n"), 5);
      t.incrementColumnValue(Bytes.of(row(90)), F, Bytes.of("n"), 7);
      assertThat(Bytes.getLong(t.get(new Get(Bytes.of(row(90)))).getValue(F, Bytes.of("n")), 0)).isEqualTo(7);
      NavigableMap<String, String> got = new TreeMap<>();
      try (ResultScanner s = t.getScanner(new Scan())) {
        for (Result r : s) {
          got.put(Bytes.str(r.row()), Bytes.str(r.getValue(F, Q)));
        }
      }
      assertThat(got).isEqualTo(model);
    }
  }

  /**
   * A crash at each step of a split, as the data directory stands there (copied at the step, while
   * the split waits): the reopened copy holds the parent alone, or both daughters, never a mix, and
   * every row acknowledged before the split exactly once. Rows only in the WAL before the split
   * (not flushed) are part of it: the split's flush moved them into files.
   */
  @ParameterizedTest
  @ValueSource(strings = {"flushed", "intent-written", "daughter-a-linked", "daughters-linked", "committed",
      "parent-closed", "parent-deleted"})
  void crashAtEveryStepRecoversToParentOrDaughters(String step) throws IOException {
    NavigableMap<String, String> model = new TreeMap<>();
    Path copy = dir.resolve("crashed");
    Path live = dir.resolve("live");
    try (Bellows db = openListening(live, EngineOptions.defaults())) {
      db.createTable(table("t"));
      Table t = db.getTable("t");
      write(t, 0, 1000, "a", model);
      db.flush("t");
      write(t, 500, 1500, "b", model); // in the WAL and memory only when the split starts
      hook = s -> {
        if (s.equals(step)) {
          hook = SplitListener.NONE;
          copyTree(live, copy);
        }
      };
      db.split("t", Bytes.of(row(700)));
    }
    boolean committed = SplitListener.STEPS.indexOf(step) >= SplitListener.STEPS.indexOf("committed");
    try (Bellows db = Bellows.open(copy, EngineOptions.defaults())) {
      List<RegionInfo> regions = db.regions("t");
      if (committed) {
        assertThat(regions).hasSize(2);
        assertThat(Bytes.str(regions.get(1).startKey())).isEqualTo(row(700));
      } else {
        assertThat(regions).hasSize(1);
      }
      assertThat(scanAll(db.getTable("t"))).isEqualTo(model);
      try (Stream<Path> s = Files.list(copy.resolve("tables").resolve("1-t"))) {
        assertThat(s.count()).as("region directories").isEqualTo(regions.size());
      }
      assertThat(Files.readString(copy.resolve("CATALOG"))).doesNotContain("split-intent");
      // The recovered table splits and takes writes as usual.
      write(db.getTable("t"), 1500, 1600, "c", model);
      db.split("t", Bytes.of(row(1200)));
      assertThat(scanAll(db.getTable("t"))).isEqualTo(model);
    }
  }

  /** A copy of a directory tree as it stands (hard links become plain copies, as a backup's would). */
  private static void copyTree(Path from, Path to) {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else if (!p.getFileName().toString().equals("LOCK")) {
          Files.copy(p, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void anIntentInTheCatalogIsRolledBackAtOpen() throws IOException {
    NavigableMap<String, String> model = new TreeMap<>();
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"));
      write(db.getTable("t"), 0, 500, "a", model);
    }
    // A split that wrote its intent and part of one daughter, then crashed.
    Catalog c = Catalog.load(io.bellows.fs.LocalFileSystem.INSTANCE, dir).withIntent(1, 1, Bytes.of(row(250)));
    c.write(io.bellows.fs.LocalFileSystem.INSTANCE, dir);
    Path daughter = dir.resolve("tables").resolve("1-t").resolve(Integer.toString(c.intent().daughterA()));
    Files.createDirectories(daughter.resolve("f"));
    Path foreign = daughter.resolve("f").resolve("notes.txt");
    Files.writeString(foreign, "not Bellows'");
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      assertThat(db.regions("t")).hasSize(1);
      assertThat(scanAll(db.getTable("t"))).isEqualTo(model);
    }
    assertThat(Catalog.load(io.bellows.fs.LocalFileSystem.INSTANCE, dir).intent()).isNull();
    assertThat(Catalog.load(io.bellows.fs.LocalFileSystem.INSTANCE, dir).nextRegionId()).isEqualTo(c.nextRegionId()); // daughter ids are not reused
    assertThat(foreign).exists(); // only Bellows' files are deleted
  }

  @Test
  void aSplitTableCanBeDisabledEnabledAndDropped() {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"));
      NavigableMap<String, String> model = new TreeMap<>();
      write(db.getTable("t"), 0, 300, "a", model);
      db.split("t", Bytes.of(row(100)));
      db.disableTable("t");
      assertThatThrownBy(() -> db.split("t", Bytes.of(row(200)))).isInstanceOf(RuntimeException.class);
      db.enableTable("t");
      assertThat(scanAll(db.getTable("t"))).isEqualTo(model);
      db.disableTable("t");
      db.dropTable("t");
      assertThat(dir.resolve("tables").resolve("1-t")).doesNotExist();
    }
  }
}
