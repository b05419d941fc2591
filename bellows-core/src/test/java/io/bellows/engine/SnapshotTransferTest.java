package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.fs.LocalFileSystem;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.StorageException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backup and restore elsewhere: a snapshot exported from a running engine, imported into another
 * data directory and cloned there holds the same rows; a damaged copy is refused at import, naming
 * the file, and leaves nothing; an interrupted export is refused at import and resumes when run again.
 */
class SnapshotTransferTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path tmp;

  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
  private final PrintStream progress = new PrintStream(printed, true);

  private Path source() {
    return tmp.resolve("source");
  }

  /** A running source engine with table t (two regions, two flushes) and snapshot s. */
  private Bellows sourceWithSnapshot() {
    Bellows db = Bellows.open(source(), EngineOptions.defaults());
    db.createTable(TableDescriptor.builder("t").family("f").build(), List.of(Bytes.of("r50")));
    Table t = db.getTable("t");
    for (int i = 0; i < 100; i++) {
      t.put(new Put(Bytes.of(String.format("r%02d", i))).addColumn(F, Q, Bytes.of("v" + i)));
      if (i == 40) {
        db.flush("t");
      }
    }
    db.snapshot("t", "s");
    return db;
  }

  private static void assertRows(Table t) {
    for (int i = 0; i < 100; i++) {
      assertThat(Bytes.str(t.get(new Get(Bytes.of(String.format("r%02d", i)))).getValue(F, Q))).isEqualTo("v" + i);
    }
  }

  private List<Path> exportedSortedFiles(Path export) throws IOException {
    try (Stream<Path> s = Files.walk(export)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".sst")).sorted().toList();
    }
  }

  @Test
  void anExportedSnapshotImportedElsewhereClonesToTheSameRows() {
    Path backup = tmp.resolve("backup");
    try (Bellows db = sourceWithSnapshot()) {
      SnapshotTransfer.Result r = SnapshotTransfer.export(LocalFileSystem.INSTANCE, source(), "s", backup, progress);
      assertThat(r.files()).isGreaterThanOrEqualTo(2);
      db.getTable("t").put(new Put(Bytes.of("later")).addColumn(F, Q, Bytes.of("x"))); // the store keeps running
    }
    Path other = tmp.resolve("other");
    try (Bellows db = Bellows.open(other, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("mine").family("f").build());
      Table mine = db.getTable("mine");
      for (int i = 0; i < 50; i++) { // files of this engine's own, numbered as the import's may be
        mine.put(new Put(Bytes.of("m" + i)).addColumn(F, Q, Bytes.of("m")));
      }
      db.flush("mine");
      SnapshotTransfer.importSnapshot(LocalFileSystem.INSTANCE, backup.resolve("s"), other, progress);
      assertThat(db.listSnapshots()).extracting(SnapshotInfo::name).containsExactly("s");
      db.cloneSnapshot("s", "t");
      assertRows(db.getTable("t"));
      assertThat(db.getTable("t").get(new Get(Bytes.of("later"))).isEmpty()).isTrue();
      assertThat(Bytes.str(mine.get(new Get(Bytes.of("m7"))).getValue(F, Q))).isEqualTo("m");
      db.getTable("t").put(new Put(Bytes.of("new")).addColumn(F, Q, Bytes.of("n")));
      db.flush("t");
      db.majorCompact("t");
      assertRows(db.getTable("t"));
    }
    try (Bellows db = Bellows.open(other, EngineOptions.defaults())) {
      assertRows(db.getTable("t"));
    }
    assertThat(printed.toString()).contains("copied snapshot s");
  }

  @Test
  void aDamagedExportIsRefusedAtImportNamingTheFileAndLeavesNothing() throws IOException {
    Path backup = tmp.resolve("backup");
    try (Bellows db = sourceWithSnapshot()) {
      SnapshotTransfer.export(LocalFileSystem.INSTANCE, source(), "s", backup, progress);
    }
    Path victim = exportedSortedFiles(backup).get(0);
    byte[] b = Files.readAllBytes(victim);
    b[b.length / 3] ^= 0x40;
    Files.write(victim, b);
    Path other = tmp.resolve("other");
    try (Bellows db = Bellows.open(other, EngineOptions.defaults())) {
      assertThatThrownBy(() -> SnapshotTransfer.importSnapshot(LocalFileSystem.INSTANCE, backup.resolve("s"), other,
          progress)).isInstanceOf(StorageException.class).hasMessageContaining(victim.toString())
          .hasMessageContaining("damaged");
      assertThat(db.listSnapshots()).isEmpty();
      assertThat(other.resolve("snapshots").resolve("s")).doesNotExist();
    }
  }

  @Test
  void anInterruptedExportIsRefusedAtImportAndResumesWhenRunAgain() throws IOException {
    Path backup = tmp.resolve("backup");
    try (Bellows db = sourceWithSnapshot()) {
      SnapshotTransfer.export(LocalFileSystem.INSTANCE, source(), "s", backup, progress);
      // As an interruption leaves it: no SNAPSHOT yet, one file not copied.
      Files.delete(backup.resolve("s").resolve("SNAPSHOT"));
      Files.delete(exportedSortedFiles(backup).get(0));
      Path other = tmp.resolve("other");
      assertThatThrownBy(() -> SnapshotTransfer.importSnapshot(LocalFileSystem.INSTANCE, backup.resolve("s"), other,
          progress)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a complete snapshot export");
      SnapshotTransfer.Result again = SnapshotTransfer.export(LocalFileSystem.INSTANCE, source(), "s", backup, progress);
      assertThat(again.files()).isEqualTo(1);
      assertThat(again.kept()).isGreaterThanOrEqualTo(1);
      assertThatThrownBy(() -> SnapshotTransfer.export(LocalFileSystem.INSTANCE, source(), "nope", backup, progress))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not exist");
    }
    Path other = tmp.resolve("other");
    try (Bellows db = Bellows.open(other, EngineOptions.defaults())) {
      SnapshotTransfer.importSnapshot(LocalFileSystem.INSTANCE, backup.resolve("s"), other, progress);
      db.cloneSnapshot("s", "t");
      assertRows(db.getTable("t"));
    }
  }
}
