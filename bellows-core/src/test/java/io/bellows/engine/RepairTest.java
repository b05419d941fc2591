package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Result;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.config.EngineOptions;
import io.bellows.manifest.StoreManifest;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.CorruptionException;
import io.bellows.util.StorageException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Repair}: a sound directory is reported clean and left as it was; each kind of damage is
 * reported naming the file, changes nothing without {@code fix}, and with it the directory opens
 * again with exactly the reported loss — and the damaged file is set aside, never deleted.
 */
class RepairTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

  private Repair.Report repair(boolean fix) {
    printed.reset();
    return Repair.run(dir, fix, new PrintStream(printed, true, StandardCharsets.UTF_8));
  }

  private String output() {
    return printed.toString(StandardCharsets.UTF_8);
  }

  /** Rows 0..99 in one sorted file, 100..199 in a second. */
  private void writeTwoFiles() {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      for (int half = 0; half < 2; half++) {
        for (int i = half * 100; i < half * 100 + 100; i++) {
          db.getTable("t").put(new Put(String.format("row%03d", i)).addColumn("f", "q", "value-" + i));
        }
        db.flush("t");
      }
    }
  }

  private List<Path> sortedFiles() throws IOException {
    try (Stream<Path> s = Files.walk(dir.resolve("tables"))) {
      return s.filter(p -> p.getFileName().toString().endsWith(".sst")).sorted().toList();
    }
  }

  private static void flipByte(Path file, long offset) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      int b = f.read();
      f.seek(offset);
      f.write(b ^ 0x5A);
    }
  }

  private List<String> rows() {
    List<String> out = new ArrayList<>();
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults());
        ResultScanner s = db.getTable("t").getScanner(new Scan())) {
      for (Result r : s) {
        out.add(Bytes.str(r.row()));
      }
    }
    return out;
  }

  private static List<String> range(int from, int to) {
    List<String> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add(String.format("row%03d", i));
    }
    return out;
  }

  @Test
  void aSoundDirectoryIsReportedCleanAndLeftAsItWas() throws IOException {
    writeTwoFiles();
    Map<Path, String> before = DirectorySnapshot.withoutLock(dir);
    Repair.Report r = repair(true);
    assertThat(r.clean()).as(output()).isTrue();
    assertThat(r.stores()).isEqualTo(1);
    assertThat(r.sortedFiles()).isEqualTo(2);
    assertThat(r.cells()).isEqualTo(200);
    assertThat(DirectorySnapshot.withoutLock(dir)).isEqualTo(before);
  }

  @Test
  void aDamagedSnapshotIsReportedAndMovedAsideWholeLeavingTheTablesAlone() throws IOException {
    writeTwoFiles();
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.snapshot("t", "good");
      db.snapshot("t", "bad");
      db.majorCompact("t"); // the table's files are new ones now: the snapshots alone hold the old
    }
    Path bad = dir.resolve("snapshots").resolve("bad");
    Path victim;
    try (Stream<Path> s = Files.walk(bad)) {
      victim = s.filter(p -> p.getFileName().toString().endsWith(".sst")).sorted().findFirst().orElseThrow();
    }
    // The two snapshots share the bytes (hard links): give the bad one its own copy first.
    byte[] copy = Files.readAllBytes(victim);
    Files.delete(victim);
    Files.write(victim, copy);
    flipByte(victim, 40);

    Repair.Report check = repair(false);
    assertThat(check.findings()).singleElement().satisfies(f -> assertThat(f.file()).isEqualTo(bad));
    assertThat(output()).contains("snapshot good: ok").contains("DAMAGED snapshots/bad")
        .contains(victim.getFileName().toString());
    Repair.Report fixed = repair(true);
    assertThat(fixed.allRepaired()).as(output()).isTrue();
    assertThat(bad).doesNotExist();
    assertThat(dir.resolve(Repair.DAMAGED).resolve("snapshots").resolve("bad")).isDirectory();
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      assertThat(db.listSnapshots()).extracting(SnapshotInfo::name).containsExactly("good");
      db.cloneSnapshot("good", "c");
    }
    assertThat(rows()).isEqualTo(range(0, 200));
  }

  @Test
  void aDamagedSortedFileIsSetAsideAndDroppedFromItsManifestLosingOnlyItsRows() throws IOException {
    writeTwoFiles();
    Path second = sortedFiles().get(1);
    flipByte(second, 40); // inside its first data block
    byte[] damagedBytes = Files.readAllBytes(second);
    Map<Path, String> before = DirectorySnapshot.withoutLock(dir);

    Repair.Report check = repair(false);
    assertThat(check.findings()).singleElement().satisfies(f -> {
      assertThat(f.file()).isEqualTo(second);
      assertThat(f.repaired()).isFalse();
    });
    assertThat(output()).contains("DAMAGED").contains(second.getFileName().toString()).contains("--fix would");
    assertThat(DirectorySnapshot.withoutLock(dir)).as("nothing changed without --fix").isEqualTo(before);

    Repair.Report fixed = repair(true);
    assertThat(fixed.allRepaired()).as(output()).isTrue();
    Path setAside = dir.resolve(Repair.DAMAGED).resolve(dir.relativize(second));
    assertThat(setAside).exists();
    assertThat(Files.readAllBytes(setAside)).as("set aside as it was, not deleted").isEqualTo(damagedBytes);
    assertThat(second).doesNotExist();
    assertThat(rows()).isEqualTo(range(0, 100));
    assertThat(repair(false).clean()).as("a second run finds nothing: " + output()).isTrue();
  }

  @Test
  void aMissingManifestIsRebuiltFromTheSortedFilesPresent() throws IOException {
    writeTwoFiles();
    Path manifest = sortedFiles().get(0).resolveSibling(StoreManifest.FILE_NAME);
    StoreManifest original = StoreManifest.load(io.bellows.fs.LocalFileSystem.INSTANCE, manifest.getParent());
    Files.delete(manifest);
    assertThatThrownBy(() -> Bellows.open(dir, EngineOptions.defaults())).isInstanceOf(CorruptionException.class);
    assertThat(repair(false).findings()).singleElement().satisfies(f -> assertThat(f.file()).isEqualTo(manifest));

    assertThat(repair(true).allRepaired()).as(output()).isTrue();
    StoreManifest rebuilt = StoreManifest.load(io.bellows.fs.LocalFileSystem.INSTANCE, manifest.getParent());
    assertThat(rebuilt.fileIds()).containsExactlyInAnyOrderElementsOf(original.fileIds());
    assertThat(rebuilt.flushedSeqId()).isEqualTo(original.flushedSeqId());
    assertThat(rows()).isEqualTo(range(0, 200));
  }

  @Test
  void aDamagedManifestIsSetAsideAndRebuilt() throws IOException {
    writeTwoFiles();
    Path manifest = sortedFiles().get(0).resolveSibling(StoreManifest.FILE_NAME);
    flipByte(manifest, 10);
    assertThat(repair(true).allRepaired()).as(output()).isTrue();
    assertThat(dir.resolve(Repair.DAMAGED).resolve(dir.relativize(manifest))).exists();
    assertThat(rows()).isEqualTo(range(0, 200));
  }

  @Test
  void aDamagedWalRecordIsCutSoTheStoreOpensWithTheRecordsBeforeIt() throws IOException {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
    }
    // A crash image: the data only in the WAL (copied while the engine runs, before close flushes).
    Path image = dir.resolveSibling(dir.getFileName() + "-image");
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      for (int i = 0; i < 50; i++) {
        db.getTable("t").put(new Put(String.format("row%03d", i)).addColumn("f", "q", "value-" + i));
      }
      copyTree(dir, image);
    }
    Path wal;
    try (Stream<Path> s = Files.list(image.resolve("wal"))) {
      wal = s.filter(p -> p.getFileName().toString().startsWith("wal-")).max(Path::compareTo).orElseThrow();
    }
    long size = Files.size(wal);
    flipByte(wal, size / 2);
    Files.delete(image.resolve(DirectoryLock.FILE_NAME));
    assertThatThrownBy(() -> Bellows.open(image, EngineOptions.defaults())).isInstanceOf(StorageException.class);
    Repair.Report r = Repair.run(image, true, new PrintStream(printed, true, StandardCharsets.UTF_8));
    assertThat(r.allRepaired()).as(output()).isTrue();
    assertThat(r.findings()).singleElement().satisfies(f -> assertThat(f.file()).isEqualTo(wal));
    assertThat(Files.size(wal)).isLessThan(size);
    try (Bellows db = Bellows.open(image, EngineOptions.defaults())) {
      List<String> found = new ArrayList<>();
      try (ResultScanner s = db.getTable("t").getScanner(new Scan())) {
        s.forEach(x -> found.add(Bytes.str(x.row())));
      }
      // A prefix of what was written: the records before the damage, none after it.
      assertThat(found).isNotEmpty().isEqualTo(range(0, found.size()));
      assertThat(found.size()).isLessThan(50);
    }
  }

  @Test
  void aDamagedCatalogIsReportedAndLeftForARestore() throws IOException {
    writeTwoFiles();
    flipByte(dir.resolve(Catalog.FILE_NAME), 20);
    Map<Path, String> before = DirectorySnapshot.withoutLock(dir);
    Repair.Report r = repair(true);
    assertThat(r.findings()).singleElement().satisfies(f -> {
      assertThat(f.file()).isEqualTo(dir.resolve(Catalog.FILE_NAME));
      assertThat(f.repaired()).isFalse();
      assertThat(f.remedy()).contains("restore CATALOG from a backup");
    });
    assertThat(DirectorySnapshot.withoutLock(dir)).isEqualTo(before);
  }

  @Test
  void aDamagedOptionsFileIsSetAsideAndWrittenAgainAtOpen() throws IOException {
    writeTwoFiles();
    flipByte(dir.resolve(OptionsFile.FILE_NAME), 3);
    assertThatThrownBy(() -> Bellows.open(dir, EngineOptions.defaults())).isInstanceOf(StorageException.class);
    assertThat(repair(true).allRepaired()).as(output()).isTrue();
    assertThat(rows()).isEqualTo(range(0, 200));
    assertThat(dir.resolve(OptionsFile.FILE_NAME)).exists();
  }

  @Test
  void itRefusesADirectoryOpenInAnEngine() {
    writeTwoFiles();
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      assertThatThrownBy(() -> repair(true)).isInstanceOf(StorageException.class)
          .hasMessageContaining("is open in a running Bellows engine");
      assertThat(db.getTable("t").get(new Get("row001")).isEmpty()).isFalse();
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
  }
}
