package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.client.ResultScanner;
import io.bellows.client.Scan;
import io.bellows.config.EngineOptions;
import io.bellows.manifest.StoreManifest;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.CorruptionException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged metadata and data files are reported clearly, naming the file; nothing is silently lost. */
class CorruptedStoreTest {
  @TempDir Path dir;

  private void writeSomething() {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      for (int i = 0; i < 200; i++) {
        db.getTable("t").put(new Put("row" + i).addColumn("f", "q", "value-" + i));
      }
      db.flush("t");
    }
  }

  private Path only(String suffix) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).findFirst().orElseThrow();
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

  @Test
  void corruptedCatalogIsReportedAtOpen() throws IOException {
    writeSomething();
    flipByte(dir.resolve("CATALOG"), 20);
    assertThatThrownBy(() -> Bellows.open(dir, EngineOptions.defaults()))
        .isInstanceOf(CorruptionException.class).hasMessageContaining("CATALOG");
    // The failed open released the directory: after repair it opens again.
    flipByte(dir.resolve("CATALOG"), 20);
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      assertThat(db.listTables()).containsExactly("t");
    }
  }

  @Test
  void truncatedManifestIsReportedAtOpen() throws IOException {
    writeSomething();
    Path manifest = only("MANIFEST");
    byte[] b = Files.readAllBytes(manifest);
    Files.write(manifest, java.util.Arrays.copyOf(b, b.length - 3));
    assertThatThrownBy(() -> Bellows.open(dir, EngineOptions.defaults()))
        .isInstanceOf(CorruptionException.class).hasMessageContaining("MANIFEST");
  }

  @Test
  void corruptedDataBlockIsReportedOnReadNamingTheFile() throws IOException {
    writeSomething();
    Path sst = only(".sst");
    flipByte(sst, 40); // inside the first data block
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      assertThatThrownBy(() -> {
        try (ResultScanner s = db.getTable("t").getScanner(new Scan())) {
          s.forEach(r -> { });
        }
      }).isInstanceOf(CorruptionException.class).hasMessageContaining(sst.getFileName().toString());
      // The engine stays usable: writes and reads of memory still work.
      db.getTable("t").put(new Put("fresh").addColumn("f", "q", "v"));
      assertThat(Bytes.str(db.getTable("t").get(new Get("fresh")).getValue(Bytes.of("f"), Bytes.of("q")))).isEqualTo("v");
    }
  }

  @Test
  void corruptedWalRecordInTheMiddleFailsTheOpenWithFileAndOffset() throws IOException {
    String walName;
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      for (int i = 0; i < 50; i++) {
        db.getTable("t").put(new Put("row" + i).addColumn("f", "q", "value-" + i));
      }
      // Keep the data in the WAL only: save the log as it is before close flushes and deletes it.
      Path live = only(".log");
      Files.copy(live, dir.resolve("saved.copy"));
      walName = live.getFileName().toString();
    }
    try (Stream<Path> s = Files.list(dir.resolve("wal"))) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Files.delete(p);
      }
    }
    Path wal = dir.resolve("wal").resolve(walName);
    Files.move(dir.resolve("saved.copy"), wal);
    // The table's files hold the data too now; empty the store so the WAL is the only copy.
    java.util.List<Path> files;
    try (Stream<Path> s = Files.walk(dir.resolve("tables"))) {
      files = s.filter(Files::isRegularFile).toList();
    }
    for (Path p : files) {
      if (p.getFileName().toString().equals(StoreManifest.FILE_NAME)) {
        StoreManifest.empty().write(io.bellows.fs.LocalFileSystem.INSTANCE, p.getParent());
      } else {
        Files.delete(p);
      }
    }
    flipByte(wal, 200);
    assertThatThrownBy(() -> Bellows.open(dir, EngineOptions.defaults()))
        .isInstanceOf(CorruptionException.class).hasMessageContaining(wal.getFileName().toString())
        .hasMessageContaining("offset");
  }
}
