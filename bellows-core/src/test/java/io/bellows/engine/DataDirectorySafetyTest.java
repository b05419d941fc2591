package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.config.EngineOptions;
import io.bellows.manifest.StoreManifest;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.CorruptionException;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opening a directory never deletes data: a directory without a catalog, a store without a manifest
 * or without its directory fails the open with nothing changed, and files Bellows did not make are
 * never deleted, even under {@code tables/} and in store directories.
 */
class DataDirectorySafetyTest {
  @TempDir Path dir;

  private void writeAndFlush(String table, int rows) {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      if (!db.tableExists(table)) {
        db.createTable(TableDescriptor.builder(table).family("f").build());
      }
      for (int i = 0; i < rows; i++) {
        db.getTable(table).put(new Put("row" + i).addColumn("f", "q", "v" + i));
      }
      db.flush(table);
    }
  }

  private void assertRows(String table, int rows) {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      for (int i = 0; i < rows; i++) {
        assertThat(Bytes.str(db.getTable(table).get(new Get("row" + i)).getValue(Bytes.of("f"), Bytes.of("q"))))
            .isEqualTo("v" + i);
      }
    }
  }

  private Path storeDir(String table) throws IOException {
    return StoreDirs.store(dir, table, "f");
  }

  @Test
  void aDirectoryWithDataButNoCatalogIsRefusedAndLeftUntouched() throws IOException {
    writeAndFlush("t", 50);
    Files.delete(dir.resolve("CATALOG"));
    Map<Path, String> before = DirectorySnapshot.of(dir);
    assertThatThrownBy(() -> Bellows.open(dir, EngineOptions.defaults()))
        .isInstanceOf(StorageException.class).hasMessageContaining("no CATALOG").hasMessageContaining("nothing was changed");
    assertThat(DirectorySnapshot.of(dir)).isEqualTo(before);
  }

  @Test
  void aForeignFolderWithATablesSubfolderIsRefusedAndLeftUntouched() throws IOException {
    Files.createDirectories(dir.resolve("tables/photos"));
    Files.writeString(dir.resolve("tables/notes.txt"), "mine");
    Files.writeString(dir.resolve("tables/photos/a.jpg"), "jpeg");
    Map<Path, String> before = DirectorySnapshot.of(dir);
    assertThatThrownBy(() -> Bellows.open(dir, EngineOptions.defaults()))
        .isInstanceOf(StorageException.class).hasMessageContaining("no CATALOG");
    assertThat(DirectorySnapshot.of(dir)).isEqualTo(before);
    assertThat(Files.exists(dir.resolve("LOCK"))).as("not even a lock file is left").isFalse();
  }

  @Test
  void aNewDirectoryGetsItsCatalogAtOnce() throws IOException {
    Path fresh = dir.resolve("new");
    Bellows.open(fresh, EngineOptions.defaults()).close();
    assertThat(fresh.resolve("CATALOG")).exists();
    try (Bellows db = Bellows.open(fresh, EngineOptions.defaults())) {
      assertThat(db.listTables()).isEmpty();
    }
  }

  @Test
  void aFileIsNotADataDirectory() throws IOException {
    Path file = Files.writeString(dir.resolve("somefile"), "text");
    assertThatThrownBy(() -> Bellows.open(file, EngineOptions.defaults()))
        .isInstanceOf(StorageException.class).hasMessageContaining("not a directory");
    assertThat(Files.readString(file)).isEqualTo("text");
  }

  @Test
  void aMissingStoreManifestFailsTheOpenAndKeepsTheSortedFiles() throws IOException {
    writeAndFlush("t", 50);
    writeAndFlush("t", 0); // a second session: the WAL no longer holds the rows
    Path manifest = storeDir("t").resolve(StoreManifest.FILE_NAME);
    byte[] saved = Files.readAllBytes(manifest);
    Files.delete(manifest);
    Map<Path, String> before = DirectorySnapshot.withoutLock(dir);
    assertThatThrownBy(() -> Bellows.open(dir, EngineOptions.defaults()))
        .isInstanceOf(CorruptionException.class).hasMessageContaining("MANIFEST").hasMessageContaining("sorted files present");
    assertThat(DirectorySnapshot.withoutLock(dir)).isEqualTo(before);
    Files.write(manifest, saved); // the documented repair: restore it
    assertRows("t", 50);
  }

  @Test
  void aMissingStoreDirectoryFailsTheOpen() throws IOException {
    writeAndFlush("t", 10);
    Path store = storeDir("t");
    try (Stream<Path> s = Files.list(store)) {
      for (Path p : s.toList()) {
        Files.delete(p);
      }
    }
    Files.delete(store);
    assertThatThrownBy(() -> Bellows.open(dir, EngineOptions.defaults()))
        .isInstanceOf(CorruptionException.class).hasMessageContaining("store directory is missing");
  }

  @Test
  void filesBellowsDidNotMakeSurviveOpenFlushCompactionAndDrop() throws IOException {
    writeAndFlush("t", 20);
    Path store = storeDir("t");
    Files.writeString(dir.resolve("tables/notes.txt"), "a");
    Files.createDirectories(dir.resolve("tables/photos"));
    Files.writeString(dir.resolve("tables/photos/p.jpg"), "b");
    Files.createDirectories(dir.resolve("tables/99-old"));
    Files.writeString(dir.resolve("tables/99-old/readme"), "c");
    Files.writeString(store.resolve("notes.txt"), "d");
    writeAndFlush("t", 20);
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.majorCompact("t");
      db.disableTable("t");
      db.dropTable("t");
    }
    Bellows.open(dir, EngineOptions.defaults()).close();
    assertThat(Files.readString(dir.resolve("tables/notes.txt"))).isEqualTo("a");
    assertThat(Files.readString(dir.resolve("tables/photos/p.jpg"))).isEqualTo("b");
    assertThat(Files.readString(dir.resolve("tables/99-old/readme"))).isEqualTo("c");
    assertThat(Files.readString(store.resolve("notes.txt"))).isEqualTo("d");
    try (Stream<Path> s = Files.list(store)) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactly("notes.txt");
    }
  }
}
