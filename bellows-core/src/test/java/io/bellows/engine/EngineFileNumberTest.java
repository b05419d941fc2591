package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.config.EngineOptions;
import io.bellows.manifest.StoreManifest;
import io.bellows.schema.TableDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sorted files are numbered engine-wide: no two files anywhere in the data directory share a
 * number, across stores, tables and reopenings; numbers found on disk at open (leftovers included)
 * are never handed out again; every open has its own instance id.
 */
class EngineFileNumberTest {
  @TempDir Path dir;

  /** Every number ever seen on disk, and the highest. */
  private final Set<Long> seen = new HashSet<>();
  private long highestSeen;
  /** Every row written, as table/row. */
  private final List<String> written = new ArrayList<>();

  @Test
  void numbersAreDistinctAcrossStoresTablesAndReopeningsAndGrowWithinAnInstance() throws IOException {
    int row = 0;
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t1").family("a").family("b").family("c").build());
      db.createTable(TableDescriptor.builder("t2").family("x").family("y").build());
      for (int round = 0; round < 4; round++) {
        row = write(db, "t1", row, "a", "b", "c");
        row = write(db, "t2", row, "x", "y");
        db.flush("t1");
        checkNewNumbers();
        db.flush("t2");
        checkNewNumbers();
      }
      db.compact("t1");
      checkNewNumbers();
      db.majorCompact("t2");
      checkNewNumbers();
      db.majorCompact("t1");
      checkNewNumbers();
      // t2 is written last, so it holds the highest numbers; then it is disabled: the next open
      // must count the files of a disabled table too.
      row = write(db, "t2", row, "x", "y");
      db.flush("t2");
      checkNewNumbers();
      db.disableTable("t2");
    }
    assertThat(numbersOnDisk()).hasSizeGreaterThan(5);

    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      assertThat(db.metrics().get("file.number.next").longValue()).isGreaterThan(highestSeen);
      row = write(db, "t1", row, "a", "b", "c");
      db.flush("t1");
      checkNewNumbers();
      db.enableTable("t2");
      row = write(db, "t2", row, "x", "y");
      db.flush("t2");
      checkNewNumbers();
      db.majorCompact("t1");
      checkNewNumbers();
      db.majorCompact("t2");
      checkNewNumbers();
      for (String tr : written) {
        String[] parts = tr.split("/");
        assertThat(db.getTable(parts[0]).get(new Get(parts[1])).isEmpty()).as(tr).isFalse();
      }
    }
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      row = write(db, "t2", row, "x", "y");
      db.flush("t2");
      checkNewNumbers();
    }
    // Every manifest's nextFileId lies above the numbers it lists.
    for (Path store : storeDirectories()) {
      StoreManifest m = StoreManifest.load(io.bellows.fs.LocalFileSystem.INSTANCE, store);
      for (long id : m.fileIds()) {
        assertThat(m.nextFileId()).as("%s", store).isGreaterThan(id);
      }
    }
  }

  @Test
  void everyOpenOfADirectoryHasItsOwnInstanceId() {
    long first;
    try (LocalEngine db = LocalEngine.open(dir, EngineOptions.defaults())) {
      first = db.instanceId();
      assertThat(db.metrics().get("engine.instance.id").longValue()).isEqualTo(first);
    }
    try (LocalEngine db = LocalEngine.open(dir, EngineOptions.defaults())) {
      assertThat(db.instanceId()).isNotEqualTo(first).isNotZero();
      assertThat(db.metrics().get("engine.instance.id").longValue()).isEqualTo(db.instanceId());
    }
    assertThat(first).isNotZero();
  }

  @Test
  void aLeftoverNumberOnDiskIsCountedBeforeItIsDeletedAndNeverHandedOutAgain() throws IOException {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family("f").family("g").build());
      write(db, "t", 0, "f", "g");
      db.flush("t");
    }
    checkNewNumbers();
    Path f = storeDir("t", "f");
    Path g = storeDir("t", "g");
    // What interrupted work leaves: a finished file never listed, a temporary file, and a store of a
    // table whose drop was interrupted (no longer in the catalog).
    Path leftover = f.resolve(StoreManifest.fileName(1_000_000));
    Path leftoverTmp = g.resolve(StoreManifest.fileName(2_000_000) + ".tmp");
    Path dropped = dir.resolve("tables").resolve("99-dropped").resolve("99").resolve("f");
    Files.createDirectories(dropped);
    Path droppedFile = dropped.resolve(StoreManifest.fileName(3_000_000));
    for (Path p : List.of(leftover, leftoverTmp, droppedFile)) {
      Files.write(p, new byte[] {1, 2, 3});
    }

    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      assertThat(leftover).doesNotExist();
      assertThat(leftoverTmp).doesNotExist();
      assertThat(droppedFile).doesNotExist();
      assertThat(db.metrics().get("file.number.next").longValue()).isGreaterThan(3_000_000);
      write(db, "t", 10, "f", "g");
      db.flush("t");
      List<Long> numbers = numbersOnDisk();
      assertThat(numbers).hasSize(4);
      assertThat(numbers.stream().filter(n -> n > 3_000_000)).hasSize(2);
      assertThat(db.getTable("t").get(new Get("row0")).isEmpty()).isFalse();
      assertThat(db.getTable("t").get(new Get("row10")).isEmpty()).isFalse();
    }
  }

  /** Writes five rows to every family of a table; returns the next row number. */
  private int write(Bellows db, String table, int row, String... families) {
    for (int i = row; i < row + 5; i++) {
      Put p = new Put("row" + i);
      for (String f : families) {
        p.addColumn(f, "q", "v" + i);
      }
      db.getTable(table).put(p);
      written.add(table + "/row" + i);
    }
    return row + 5;
  }

  /**
   * Checks that the numbers on disk are distinct and that each number not seen before lies above
   * every number seen before (within an instance, and across reopenings, which start above all).
   */
  private void checkNewNumbers() throws IOException {
    List<Long> now = numbersOnDisk();
    List<Long> fresh = new ArrayList<>();
    for (long n : now) {
      if (!seen.contains(n)) {
        fresh.add(n);
      }
    }
    for (long n : fresh) {
      assertThat(n).as("new file number %d vs. every earlier one (up to %d)", n, highestSeen).isGreaterThan(highestSeen);
    }
    for (long n : fresh) {
      seen.add(n);
      highestSeen = Math.max(highestSeen, n);
    }
  }

  /** The number of every sorted file (final or temporary) anywhere under the data directory, checked distinct. */
  private List<Long> numbersOnDisk() throws IOException {
    TreeMap<Long, Path> byNumber = new TreeMap<>();
    // A background compaction may delete its inputs while we walk: a file that vanished is skipped.
    Files.walkFileTree(dir, new java.nio.file.SimpleFileVisitor<Path>() {
      @Override
      public java.nio.file.FileVisitResult visitFile(Path p, java.nio.file.attribute.BasicFileAttributes attrs) {
        long n = FileNumberScan.numberOf(p.getFileName().toString());
        if (n >= 0 && attrs.isRegularFile()) {
          Path other = byNumber.put(n, p);
          assertThat(other).as("number %d names both %s and %s", n, other, p).isNull();
        }
        return java.nio.file.FileVisitResult.CONTINUE;
      }

      @Override
      public java.nio.file.FileVisitResult visitFileFailed(Path p, IOException e) throws IOException {
        if (e instanceof java.nio.file.NoSuchFileException) {
          return java.nio.file.FileVisitResult.CONTINUE;
        }
        throw e;
      }
    });
    return new ArrayList<>(byNumber.keySet());
  }

  private List<Path> storeDirectories() throws IOException {
    try (Stream<Path> s = Files.walk(dir.resolve("tables"), 3)) {
      return s.filter(p -> Files.exists(p.resolve(StoreManifest.FILE_NAME))).toList();
    }
  }

  private Path storeDir(String table, String family) throws IOException {
    return StoreDirs.store(dir, table, family);
  }
}
