package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Get;
import io.bellows.client.Put;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.schema.TableDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an open reads back from the WAL is counted truly: replayed edits apart from skipped ones. */
class WalReplayAccountingTest {
  @TempDir Path dir;

  @Test
  void editsAlreadyInSortedFilesAreCountedAsSkippedNotReplayed() throws IOException {
    Path image = dir.resolve("image");
    Path live = dir.resolve("live");
    try (Bellows db = Bellows.open(live, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      for (int i = 0; i < 100; i++) {
        db.getTable("t").put(new Put("flushed" + i).addColumn("f", "q", "v").setDurability(Durability.SYNC_WAL));
      }
      db.flush("t");
      for (int i = 0; i < 10; i++) {
        db.getTable("t").put(new Put("unflushed" + i).addColumn("f", "q", "v").setDurability(Durability.SYNC_WAL));
      }
      copyTree(live, image); // what a crash now would leave: every write is synced
    }
    try (Bellows db = Bellows.open(image, EngineOptions.defaults())) {
      assertThat(db.metrics().get("wal.edits.replayed").longValue()).isEqualTo(10);
      assertThat(db.metrics().get("wal.edits.skipped").longValue()).isEqualTo(100);
      assertThat(db.getTable("t").get(new Get("unflushed9")).isEmpty()).isFalse();
      assertThat(db.getTable("t").get(new Get("flushed0")).isEmpty()).isFalse();
    }
  }

  @Test
  void aCleanCloseLeavesNoLogToReadAtTheNextOpen() throws IOException {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("t").family("f").build());
      for (int i = 0; i < 100; i++) {
        db.getTable("t").put(new Put("row" + i).addColumn("f", "q", "v"));
      }
    }
    try (Stream<Path> s = Files.list(dir.resolve("wal"))) {
      assertThat(s.toList()).isEmpty();
    }
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      assertThat(db.metrics().get("wal.edits.replayed").longValue()).isZero();
      assertThat(db.metrics().get("wal.edits.skipped").longValue()).isZero();
      assertThat(db.getTable("t").get(new Get("row99")).isEmpty()).isFalse();
    }
  }

  /**
   * With the log emptied at close, the next sequence ids come from the sorted files alone, and a
   * disabled table's files count too: an edit numbered below its flushed id would be skipped by
   * the replay after a crash.
   */
  @Test
  void newEditsOfAReEnabledTableSurviveACrash() throws IOException {
    Path live = dir.resolve("live");
    Path image = dir.resolve("image");
    try (Bellows db = Bellows.open(live, EngineOptions.defaults())) {
      db.createTable(TableDescriptor.builder("busy").family("f").build());
      db.createTable(TableDescriptor.builder("idle").family("f").build());
      for (int i = 0; i < 200; i++) {
        db.getTable("busy").put(new Put("old" + i).addColumn("f", "q", "v"));
      }
      db.disableTable("busy");
    }
    try (Bellows db = Bellows.open(live, EngineOptions.defaults())) {
      db.enableTable("busy");
      for (int i = 0; i < 10; i++) {
        db.getTable("busy").put(new Put("new" + i).addColumn("f", "q", "v").setDurability(Durability.SYNC_WAL));
      }
      copyTree(live, image); // a crash now
    }
    try (Bellows db = Bellows.open(image, EngineOptions.defaults())) {
      for (int i = 0; i < 10; i++) {
        assertThat(db.getTable("busy").get(new Get("new" + i)).isEmpty()).as("new%d", i).isFalse();
      }
    }
  }

  static void copyTree(Path from, Path to) throws IOException {
    List<Path> all;
    try (Stream<Path> s = Files.walk(from)) {
      all = s.toList();
    }
    for (Path p : all) {
      Path target = to.resolve(from.relativize(p).toString());
      if (Files.isDirectory(p)) {
        Files.createDirectories(target);
      } else {
        Files.copy(p, target);
      }
    }
  }
}
